import type { Logger } from 'pino';

/** A store whose collection may still hold indexes its schema no longer declares. */
export interface RetiresIndexes {
  /** Drops them; answers the names dropped (none when already gone). */
  dropRetiredIndexes(): Promise<string[]>;
}

/**
 * Drops the retired indexes of each store at start. Maintenance, never a reason not to start: a
 * failure is logged, and tried again at the next start.
 */
export async function dropRetiredIndexes(
  logger: Logger,
  ...stores: RetiresIndexes[]
): Promise<void> {
  for (const store of stores)
    await store.dropRetiredIndexes().then(
      (dropped) =>
        dropped.length > 0 && logger.info({ indexes: dropped }, 'retired indexes dropped'),
      (error: unknown) => logger.warn({ err: error }, 'retired indexes not dropped'),
    );
}
