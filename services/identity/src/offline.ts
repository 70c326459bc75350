import { connectMongo, createLogger, ensureIndexes, Outbox, SecretBox } from '@inventory/platform';
import { DEV_IDENTITY_SECRET_ENCRYPTION_KEY } from './config.js';
import { createStore, type IdentityStore } from './store/index.js';
import { createUseCases, type UseCases } from './use-cases/index.js';

export interface OfflineIdentity {
  useCases: UseCases;
  store: IdentityStore;
  close(): Promise<void>;
}

/**
 * Identity's use cases straight on its database, without the gRPC server or
 * NATS: for the admin CLI and the development seed. Token events go to the
 * outbox, which the running service's relay publishes.
 */
export async function openOffline(options: {
  mongoUrl: string;
  dbName: string;
  baseDomain?: string;
  retentionDays?: number;
  /** The service's IDENTITY_SECRET_ENCRYPTION_KEY; the development key when absent (the seed). */
  secretEncryptionKey?: string;
}): Promise<OfflineIdentity> {
  const logger = createLogger({
    service: 'identity-admin',
    level: 'warn',
    destination: process.stderr,
  });
  const connection = await connectMongo(options.mongoUrl, options.dbName);
  const store = createStore(connection, { requestLogRetentionDays: options.retentionDays ?? 30 });
  const outbox = new Outbox(connection);
  await ensureIndexes(connection);
  const useCases = createUseCases({
    store,
    outbox,
    settings: {
      baseDomain: (options.baseDomain ?? 'inventory.localhost').toLowerCase(),
      sessionTtlMinutes: 720,
      totpIssuer: 'Inventory',
    },
    secrets: new SecretBox(options.secretEncryptionKey ?? DEV_IDENTITY_SECRET_ENCRYPTION_KEY),
    logger,
  });
  return { useCases, store, close: () => connection.close() };
}
