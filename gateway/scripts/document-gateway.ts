import { freePort, startTestInfra } from '@inventory/local-infra';
import { bootstrap, type GatewayHandle } from '../src/bootstrap.js';

/**
 * A gateway that only has to describe itself: real Redis and NATS (its wiring needs them), every
 * service at an address where nothing listens. The OpenAPI document comes from the routes and the
 * route table alone, so it is the one a full system serves.
 */
export async function withDocumentGateway<T>(
  use: (gateway: GatewayHandle) => Promise<T>,
): Promise<T> {
  const infra = await startTestInfra({ mongo: false });
  try {
    const nowhere = async () => `127.0.0.1:${await freePort()}`;
    const gateway = await bootstrap({
      LOG_LEVEL: 'silent',
      HTTP_PORT: '0',
      REDIS_URL: infra.redisUrl,
      NATS_URL: infra.natsUrl,
      IDENTITY_GRPC_ADDRESS: await nowhere(),
      PARCEL_TRACKING_GRPC_ADDRESS: await nowhere(),
      WEBHOOK_INGEST_GRPC_ADDRESS: await nowhere(),
      OUTBOUND_DELIVERY_GRPC_ADDRESS: await nowhere(),
      ACTIVITY_GRPC_ADDRESS: await nowhere(),
      CATALOG_GRPC_ADDRESS: await nowhere(),
    });
    try {
      return await use(gateway);
    } finally {
      await gateway.stop();
    }
  } finally {
    await infra.stop();
  }
}

/** The document as `GET /api/openapi.json` serves it. */
export async function fetchDocument(gateway: GatewayHandle): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.url}/api/openapi.json`);
  if (response.status !== 200) throw new Error(`/api/openapi.json answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}
