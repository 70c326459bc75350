import type { AddressInfo } from 'node:net';
import type { Server, Socket } from 'node:net';
import 'mingo/init/system';
import { silentLogger, type Logger } from './logger.js';
import { createWireServer } from './server.js';
import { Catalog } from './storage/catalog.js';
import { Journal, type FsyncPolicy } from './storage/journal.js';

export interface EmbeddedMongoOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Without a data directory everything lives in memory only. */
  dataDir?: string;
  fsync?: FsyncPolicy;
  /** How often TTL indexes are swept. */
  ttlIntervalMs?: number;
  /** Journal size that starts a compaction: a snapshot written a slice per turn (ADR 0722). */
  compactBytes?: number;
  logger?: Logger;
}

export interface EmbeddedMongo {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startEmbeddedMongo(
  options: EmbeddedMongoOptions = {},
): Promise<EmbeddedMongo> {
  const logger = options.logger ?? silentLogger;
  const host = options.host ?? '127.0.0.1';
  const journal = options.dataDir
    ? new Journal(options.dataDir, options.fsync ?? 'interval', logger)
    : undefined;
  const catalog = new Catalog(journal);
  if (journal) {
    const records = journal.open();
    catalog.replay(records);
    // Start every run from a fresh snapshot so the journal only ever holds this run's writes.
    journal.compact(catalog.snapshot());
    logger.info(`replayed ${records.length} journal records from ${options.dataDir}`);
  }
  const server: Server = createWireServer({
    catalog,
    journal,
    logger,
    compactBytes: options.compactBytes ?? 64 * 1024 * 1024,
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const ttl = setInterval(() => {
    if (catalog.expire(Date.now()) > 0) journal?.flush();
  }, options.ttlIntervalMs ?? 1000);
  ttl.unref();

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      clearInterval(ttl);
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }).then(() => journal?.close()));

  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return { url: `mongodb://${urlHost}:${port}`, port, stop };
}
