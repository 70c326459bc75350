import { freePort } from '@inventory/local-infra';
import type { GatewayHandle } from '@inventory/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  httpCall,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

// DEV_LOOPBACK_TENANT (development only, set by `npm start`): clients that cannot resolve
// `*.localhost` reach the development tenant on 127.0.0.1 / localhost.
describe('the development tenant on loopback hosts', () => {
  let system: RunningSystem;
  let dev: TenantFixture;
  let other: TenantFixture;
  let devGateway: GatewayHandle;
  let devPort: number;

  beforeAll(async () => {
    system = await startSystem();
    dev = await createTenantWithToken(system, { slug: 'devloop' });
    other = await createTenantWithToken(system, { slug: 'otherloop' });
    devPort = await freePort();
    devGateway = await startSecondGateway(system, {
      DEV_LOOPBACK_TENANT: 'devloop',
      HTTP_PORT: String(devPort),
      PUBLIC_SCHEME: 'http',
      PUBLIC_PORT: String(devPort),
    });
  });
  afterAll(async () => {
    await devGateway?.stop();
    await system?.stop();
  });

  it("answers Node's own fetch on 127.0.0.1 as the development tenant", async () => {
    const response = await fetch(`http://127.0.0.1:${devPort}/api/user`, {
      headers: { authorization: `Bearer ${dev.token}`, accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { id: number; email: string } };
    expect(body.data).toMatchObject({ id: dev.user.id, email: dev.user.email });
  });

  it('answers Host: localhost (with or without a port) the same way', async () => {
    for (const host of ['localhost', `localhost:${devPort}`]) {
      const response = await httpCall(devGateway.url, 'GET', '/api/user', {
        host,
        headers: { authorization: `Bearer ${dev.token}` },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(dev.user.id);
    }
  });

  it("is the development tenant only: another tenant's token is refused there", async () => {
    const response = await fetch(`http://127.0.0.1:${devPort}/api/user`, {
      headers: { authorization: `Bearer ${other.token}`, accept: 'application/json' },
    });
    expect(response.status).toBe(401);
  });

  it('writes generated URLs with the loopback address the client used', async () => {
    const response = await fetch(`http://127.0.0.1:${devPort}/api/v2/products?per_page=1`, {
      headers: { authorization: `Bearer ${dev.token}`, accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(JSON.stringify(body)).toContain(`http://127.0.0.1:${devPort}/api/v2/products?`);
  });

  it('is off unless set: without it, loopback hosts are unknown like any other host', async () => {
    const response = await fetch(`${system.gatewayUrl}/api/user`, {
      headers: { authorization: `Bearer ${dev.token}`, accept: 'application/json' },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toBe(
      'No tenant answers on 127.0.0.1.',
    );
    expect(system.gateway.config.DEV_LOOPBACK_TENANT).toBeUndefined();
  });
});
