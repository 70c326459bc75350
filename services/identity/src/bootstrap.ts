import { ServiceRuntime, SecretBox } from '@inventory/platform';
import { readConfig, settingsFrom } from './config.js';
import { IDENTITY_STREAM } from '@inventory/events';
import { consumeRequestLog } from './events/request-log-consumer.js';
import { identityService } from './grpc/identity-service.js';
import { createStore } from './store/index.js';
import { createUseCases } from './use-cases/index.js';

export const SERVICE_NAME = 'identity';
export {
  seedDevelopment,
  type SeedDevelopmentOptions,
  type SeededDevelopment,
} from './seed-development.js';

/** Wires the service and starts serving; the returned runtime's `stop()` drains and closes. */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  const runtime = await ServiceRuntime.start({
    name: SERVICE_NAME,
    config,
    dbName: config.MONGO_DB,
    streams: [IDENTITY_STREAM],
  });
  const store = createStore(runtime.mongo, {
    requestLogRetentionDays: config.REQUEST_LOG_RETENTION_DAYS,
  });
  const useCases = createUseCases({
    store,
    outbox: runtime.outbox,
    publisher: runtime.publisher,
    settings: settingsFrom(config),
    secrets: new SecretBox(config.IDENTITY_SECRET_ENCRYPTION_KEY),
    logger: runtime.logger,
  });
  runtime.startOutboxRelay();
  await runtime.serve([identityService(useCases, runtime.logger)]);
  await consumeRequestLog(runtime, useCases);
  return runtime;
}
