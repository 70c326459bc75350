import { ServiceRuntime } from '@inventory/platform';
import { readConfig } from './config.js';

export const SERVICE_NAME = 'outbound-delivery';

/** Wires the service and starts serving; the returned runtime's `stop()` drains and closes. */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  const runtime = await ServiceRuntime.start({
    name: SERVICE_NAME,
    config,
    dbName: config.MONGO_DB,
  });
  await runtime.serve([]);
  return runtime;
}
