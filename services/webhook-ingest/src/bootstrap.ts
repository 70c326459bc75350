import { ServiceRuntime } from '@inventory/platform';
import { readConfig } from './config.js';
import { webhookIngestService } from './grpc/webhook-ingest-service.js';
import { InboxStore } from './store/inbox-store.js';
import { TokenStore } from './store/token-store.js';
import { GetWebhookSummary } from './use-cases/get-webhook-summary.js';
import { IngestWebhook } from './use-cases/ingest-webhook.js';
import { RegisterToken } from './use-cases/register-token.js';
import { ResolveToken } from './use-cases/resolve-token.js';
import { UnregisterToken } from './use-cases/unregister-token.js';

export const SERVICE_NAME = 'webhook-ingest';

export { InboxStore, type WebhookEventDocument } from './store/inbox-store.js';
export { TokenStore } from './store/token-store.js';

/** Wires the service and starts serving; the returned runtime's `stop()` drains and closes. */
export async function bootstrap(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ServiceRuntime & { stores: { tokens: TokenStore; inbox: InboxStore } }> {
  const config = readConfig(env);
  const runtime = await ServiceRuntime.start({
    name: SERVICE_NAME,
    config,
    dbName: config.MONGO_DB,
  });
  const tokens = new TokenStore(runtime.mongo);
  const inbox = new InboxStore(runtime.mongo);
  const resolveToken = new ResolveToken(tokens);
  await runtime.serve([
    webhookIngestService({
      registerToken: new RegisterToken(tokens),
      unregisterToken: new UnregisterToken(tokens),
      resolveToken,
      ingestWebhook: new IngestWebhook(resolveToken, inbox),
      getWebhookSummary: new GetWebhookSummary(inbox),
    }),
  ]);
  return Object.assign(runtime, { stores: { tokens, inbox } });
}
