import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_EXPIRATION_HEADER } from '@inventory/access';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const header = TOKEN_EXPIRATION_HEADER.toLowerCase();

describe('the token expiry header (ADR 0113)', () => {
  let system: RunningSystem;
  let neverExpires: TenantFixture;
  const expiresAt = new Date(Date.now() + 3 * 24 * 3600 * 1000);
  expiresAt.setUTCMilliseconds(0);

  beforeAll(async () => {
    system = await startSystem();
    neverExpires = await createTenantWithToken(system);
  });
  afterAll(() => system?.stop());

  it('carries the expiry on every answer to an expiring token: success, refusal and unknown route', async () => {
    const expiring = await createUserWithToken(system, neverExpires.tenant, {
      scopes: [],
      token: { expiresAt },
    });
    const ok = await expiring.request('GET', '/api/user');
    expect(ok.status).toBe(200);
    expect(ok.headers[header]).toBe(expiresAt.toISOString());

    const missingScope = await expiring.request('GET', '/api/v2/products');
    expect(missingScope.status).toBe(403);
    expect(missingScope.headers[header]).toBe(expiresAt.toISOString());

    const unknownRoute = await expiring.request('GET', '/api/no-such-route');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.headers[header]).toBe(expiresAt.toISOString());
  });

  it('is absent for a token without expiry, for a refused token and for a web session', async () => {
    const ok = await neverExpires.request('GET', '/api/user');
    expect(ok.status).toBe(200);
    expect(ok.headers).not.toHaveProperty(header);

    const wrongSecret = await neverExpires.withToken(`${neverExpires.tokenId}|${'x'.repeat(48)}`)(
      'GET',
      '/api/user',
    );
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers).not.toHaveProperty(header);

    const session = await loginSession(neverExpires, system.gatewayUrl);
    const viaSession = await session.request('GET', '/api/user');
    expect(viaSession.status).toBe(200);
    expect(viaSession.headers).not.toHaveProperty(header);
  });
});
