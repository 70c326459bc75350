import { startTestInfra } from '@inventory/local-infra';
import type { GatewayHandle } from '../src/bootstrap.js';
import { startLoneGateway } from '../src/http/test-gateway.test-util.js';

/**
 * A gateway that only has to describe itself (`startLoneGateway`: no service reachable). The
 * OpenAPI document comes from the routes and the route table alone, so it is the one a full
 * system serves.
 */
export async function withDocumentGateway<T>(
  use: (gateway: GatewayHandle) => Promise<T>,
): Promise<T> {
  const infra = await startTestInfra({ mongo: false });
  try {
    const gateway = await startLoneGateway(infra);
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
