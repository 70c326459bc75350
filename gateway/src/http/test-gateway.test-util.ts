import { freePort, type TestInfra } from '@inventory/local-infra';
import { bootstrap, type BootstrapOptions, type GatewayHandle } from '../bootstrap.js';

/** Every downstream service the gateway's config names. */
const SERVICE_ADDRESSES = [
  'IDENTITY_GRPC_ADDRESS',
  'PARCEL_TRACKING_GRPC_ADDRESS',
  'WEBHOOK_INGEST_GRPC_ADDRESS',
  'OUTBOUND_DELIVERY_GRPC_ADDRESS',
  'ACTIVITY_GRPC_ADDRESS',
  'CATALOG_GRPC_ADDRESS',
] as const;

/**
 * A gateway on its own: real Redis and NATS (its wiring needs them), every service at an address
 * where nothing listens. For what the gateway answers before or without a service: the HTTP
 * parser's refusals, the shutdown path, its spans and log lines, its OpenAPI document and route
 * table. `env` adds to or overrides the defaults (LOG_LEVEL silent, any free HTTP port).
 */
export async function startLoneGateway(
  infra: Pick<TestInfra, 'redisUrl' | 'natsUrl'>,
  env: NodeJS.ProcessEnv = {},
  options: BootstrapOptions = {},
): Promise<GatewayHandle> {
  const nowhere: NodeJS.ProcessEnv = {};
  for (const name of SERVICE_ADDRESSES) nowhere[name] = `127.0.0.1:${await freePort()}`;
  return bootstrap(
    {
      LOG_LEVEL: 'silent',
      HTTP_PORT: '0',
      REDIS_URL: infra.redisUrl,
      NATS_URL: infra.natsUrl,
      ...nowhere,
      ...env,
    },
    options,
  );
}
