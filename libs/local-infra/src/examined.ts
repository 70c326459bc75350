/** A database handle that runs admin commands: the driver's `Db`, as `connection.db` gives it. */
interface AdminCommands {
  admin(): { command(command: { serverStatus: 1 }): Promise<unknown> };
}

/**
 * Documents the MongoDB server has examined since it started (`serverStatus`
 * `metrics.queryExecutor.scannedObjects`, which the embedded server counts too, ADR 0726). Read
 * before and after an operation to bound what it reads, whatever its timing.
 */
export async function documentsExamined(db: AdminCommands): Promise<number> {
  const status = (await db.admin().command({ serverStatus: 1 })) as {
    metrics: { queryExecutor: { scannedObjects: number } };
  };
  return status.metrics.queryExecutor.scannedObjects;
}
