import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';

// Mongoose formats a stack trace (`new Error().stack`) on every query it executes, kept only to
// explain a "Query was already executed" programming error: 13 µs per query under plain Node and
// 35 µs with source maps (tsx, `npm start`), on every read and write of every service (ADR 0713).
mongoose.set('skipOriginalStackTraces', true);

/**
 * Opens this service's own database. Each service gets its own connection
 * (never the mongoose global), so two services in one test process stay apart.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  logger?: Logger,
): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    dbName,
    autoIndex: true,
    autoCreate: true,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 20,
  });
  await connection.asPromise();
  logger?.info({ db: dbName }, 'connected to MongoDB');
  return connection;
}

/** Builds every model's declared indexes before serving, so unique invariants hold from the first request. */
export async function ensureIndexes(connection: Connection): Promise<void> {
  await Promise.all(Object.values(connection.models).map((model) => model.init()));
}
