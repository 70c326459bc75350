import {
  connectMongo,
  connectNats,
  createLogger,
  ensureIndexes,
  EventPublisher,
  Outbox,
  SecretBox,
} from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { DEV_IDENTITY_SECRET_ENCRYPTION_KEY } from './config.js';
import { TokenEvents } from './events/token-events.js';
import { UserEvents } from './events/user-events.js';
import { createStore, type IdentityStore } from './store/repositories.js';
import { wireUseCases, type IdentityUseCases } from './wiring.js';

export interface OfflineIdentity {
  useCases: IdentityUseCases;
  store: IdentityStore;
  close(): Promise<void>;
}

/**
 * Identity's use cases straight on its database, without the gRPC server: for
 * the admin CLI and the development seed. Token events always go to the outbox
 * (the running service's relay publishes them); with `natsUrl` they are also
 * published at once and the server's ack awaited, as the service does, and a
 * failure to do so is an error (`GatewaysNotNotified`): an operator's revocation
 * returns only once the gateways have been told.
 */
export async function openOffline(options: {
  mongoUrl: string;
  dbName: string;
  baseDomain?: string;
  retentionDays?: number;
  /** The service's IDENTITY_SECRET_ENCRYPTION_KEY; the development key when absent (the seed). */
  secretEncryptionKey?: string;
  /** NATS, for commands whose events the gateways must get before the command returns. */
  natsUrl?: string;
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
  let nats: NatsConnection | undefined;
  let publisher: Pick<EventPublisher, 'publish'> | undefined;
  if (options.natsUrl) {
    try {
      nats = await connectNats(options.natsUrl, 'identity-admin');
      publisher = new EventPublisher(nats.jetstream());
    } catch (error) {
      // The change still goes ahead (and into the outbox); the command then says who was not told.
      publisher = { publish: () => Promise.reject(error) };
    }
  }
  const useCases = wireUseCases({
    store,
    tokenEvents: new TokenEvents(outbox, publisher, logger, options.natsUrl !== undefined),
    userEvents: new UserEvents(outbox, publisher, logger, options.natsUrl !== undefined),
    secrets: new SecretBox(options.secretEncryptionKey ?? DEV_IDENTITY_SECRET_ENCRYPTION_KEY),
    settings: {
      baseDomain: (options.baseDomain ?? 'inventory.localhost').toLowerCase(),
      sessionTtlMinutes: 720,
      totpIssuer: 'Inventory',
    },
    logger,
  });
  return {
    useCases,
    store,
    close: async () => {
      await nats?.drain().catch(() => nats?.close());
      await connection.close();
    },
  };
}
