import { ACTIVITY_STREAM, IDENTITY_STREAM } from '@inventory/events';
import { dropRetiredIndexes, SecretBox, ServiceRuntime } from '@inventory/platform';
import { readConfig, settingsFrom } from './config.js';
import { consumeRequestLog } from './events/request-log-consumer.js';
import { startTokenPasses } from './events/token-pass-timer.js';
import { TokenEvents } from './events/token-events.js';
import { UserEvents } from './events/user-events.js';
import { identityService } from './grpc/identity-service.js';
import { createStore } from './store/repositories.js';
import { ExpireIdleTokens } from './use-cases/expire-idle-tokens.js';
import { RaiseExpiryAlerts } from './use-cases/raise-expiry-alerts.js';
import { wireUseCases } from './wiring.js';

export const SERVICE_NAME = 'identity';

/** Wires the service and starts serving; the returned runtime's `stop()` drains and closes. */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  return ServiceRuntime.run(
    {
      name: SERVICE_NAME,
      config,
      dbName: config.MONGO_DB,
      streams: [IDENTITY_STREAM, ACTIVITY_STREAM],
    },
    async (runtime) => {
      const store = createStore(runtime.mongo, {
        requestLogRetentionDays: config.REQUEST_LOG_RETENTION_DAYS,
      });
      await dropRetiredIndexes(runtime.logger, store.requests);
      const tokenEvents = new TokenEvents(runtime.outbox, runtime.publisher, runtime.logger);
      const useCases = wireUseCases({
        store,
        tokenEvents,
        userEvents: new UserEvents(runtime.outbox, runtime.publisher, runtime.logger),
        secrets: new SecretBox(config.IDENTITY_SECRET_ENCRYPTION_KEY),
        settings: settingsFrom(config),
        logger: runtime.logger,
      });
      runtime.startOutboxRelay();
      await runtime.serve([identityService(useCases, runtime.logger)]);
      await consumeRequestLog(runtime, useCases.recordTokenRequests);
      const idle = new ExpireIdleTokens({
        policies: store.policies,
        tokens: store.tokens,
        users: store.users,
        outbox: runtime.outbox,
        events: tokenEvents,
      });
      const alerts = new RaiseExpiryAlerts(store.tokens, store.users, runtime.outbox);
      const stopTokenPasses = startTokenPasses(
        [
          { name: 'unused token expiry', execute: () => idle.execute() },
          { name: 'expiry alerts', execute: () => alerts.execute() },
        ],
        config.TOKEN_EXPIRY_ALERT_INTERVAL_MS,
        runtime.logger,
      );
      runtime.onStop(stopTokenPasses);
    },
  );
}
