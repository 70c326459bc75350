import { bootstrap as startActivity } from '@inventory/activity';
import { bootstrap as startCatalog } from '@inventory/catalog';
import { bootstrap as startGateway, type GatewayHandle } from '@inventory/gateway';
import { bootstrap as startIdentity } from '@inventory/identity';
import { freePort, startTestInfra, type TestInfra } from '@inventory/local-infra';
import { bootstrap as startOutboundDelivery } from '@inventory/outbound-delivery';
import { bootstrap as startParcelTracking } from '@inventory/parcel-tracking';
import type { ServiceRuntime } from '@inventory/platform';
import { bootstrap as startWebhookIngest } from '@inventory/webhook-ingest';

export interface SystemOptions {
  /** Extra variables for every process (e.g. LOG_LEVEL=debug while debugging a test). */
  env?: NodeJS.ProcessEnv;
  /** Extra variables for one service, by name (e.g. { 'parcel-tracking': { PROVIDER_BASE_URL } }). */
  serviceEnv?: Record<string, NodeJS.ProcessEnv>;
  gatewayEnv?: NodeJS.ProcessEnv;
}

export interface RunningSystem {
  infra: TestInfra;
  services: Record<string, ServiceRuntime>;
  gateway: GatewayHandle;
  gatewayUrl: string;
  stop(): Promise<void>;
}

const SERVICES = {
  identity: startIdentity,
  // webhook-ingest first: parcel-tracking is given its address (the webhook token registry).
  'webhook-ingest': startWebhookIngest,
  'parcel-tracking': startParcelTracking,
  'outbound-delivery': startOutboundDelivery,
  activity: startActivity,
  catalog: startCatalog,
} as const;

/**
 * The whole system in this process, on real nats-server, redis-server and the
 * embedded MongoDB (or MONGO_URL), every part on a random port. Tests drive it
 * over HTTP through the gateway, exactly as a client would. Always stop() it.
 */
export async function startSystem(options: SystemOptions = {}): Promise<RunningSystem> {
  const infra = await startTestInfra();
  const services: Record<string, ServiceRuntime> = {};
  const stopServices = async () => {
    for (const service of Object.values(services).reverse())
      await service.stop().catch(() => undefined);
  };
  try {
    const common = {
      LOG_LEVEL: 'silent',
      MONGO_URL: infra.mongoUrl,
      NATS_URL: infra.natsUrl,
      REDIS_URL: infra.redisUrl,
      ...options.env,
    };
    // webhook-ingest calls parcel-tracking too (signatures, updates): it gets a port chosen up front.
    const parcelTrackingPort = await freePort();
    for (const [name, start] of Object.entries(SERVICES)) {
      const wiring: NodeJS.ProcessEnv =
        name === 'parcel-tracking'
          ? {
              WEBHOOK_INGEST_GRPC_ADDRESS: services['webhook-ingest']!.grpc!.address,
              GRPC_PORT: String(parcelTrackingPort),
            }
          : name === 'webhook-ingest'
            ? { PARCEL_TRACKING_GRPC_ADDRESS: `127.0.0.1:${parcelTrackingPort}` }
            : {};
      services[name] = await start({
        ...common,
        MONGO_DB: infra.dbName(name.replace(/-/g, '_')),
        ...wiring,
        ...options.serviceEnv?.[name],
      });
    }
    const address = (name: string) => services[name]!.grpc!.address;
    const gateway = await startGateway({
      ...common,
      HTTP_PORT: '0',
      IDENTITY_GRPC_ADDRESS: address('identity'),
      PARCEL_TRACKING_GRPC_ADDRESS: address('parcel-tracking'),
      WEBHOOK_INGEST_GRPC_ADDRESS: address('webhook-ingest'),
      OUTBOUND_DELIVERY_GRPC_ADDRESS: address('outbound-delivery'),
      ACTIVITY_GRPC_ADDRESS: address('activity'),
      CATALOG_GRPC_ADDRESS: address('catalog'),
      ...options.gatewayEnv,
    });
    return {
      infra,
      services,
      gateway,
      gatewayUrl: gateway.url,
      async stop() {
        await gateway.stop().catch(() => undefined);
        await stopServices();
        await infra.stop();
      },
    };
  } catch (error) {
    await stopServices();
    await infra.stop();
    throw error;
  }
}
