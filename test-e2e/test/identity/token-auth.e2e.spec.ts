import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  createTenantWithToken,
  identityClient,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const INVALID = {
  errors: {
    token: [
      {
        message: 'The access token is invalid, expired or revoked.',
        code: 'Unauthorized',
        data: [],
      },
    ],
  },
  status: 'failure',
  message: 'The access token is invalid, expired or revoked.',
};

describe('tenancy and bearer tokens through the gateway', () => {
  let system: RunningSystem;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    a = await createTenantWithToken(system, { slug: 'acme' });
    b = await createTenantWithToken(system, {
      slug: 'globex',
      tenantName: 'Globex Corporation',
      customDomains: ['api.globex.test'],
    });
  });
  afterAll(() => system?.stop());

  it('resolves the tenant from Host and returns the token user', async () => {
    const response = await a.request('GET', '/api/user');
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: a.user.id,
      email: a.user.email,
      is_owner: true,
    });
    expect(a.host).toBe('acme.inventory.localhost');
  });

  it('names the tenant of the address (GET /api/tenant), on each of its hosts', async () => {
    const own = await b.request('GET', '/api/tenant');
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ name: 'Globex Corporation', slug: 'globex' });
    expect(own.body.data.base_url).toMatch(/^https?:\/\/globex\.inventory\.localhost(:\d+)?$/);
    const custom = await b.withToken(b.token)('GET', '/api/tenant', undefined, {
      host: 'api.globex.test',
    });
    expect(custom.body.data).toMatchObject({ name: 'Globex Corporation', slug: 'globex' });
    expect(custom.body.data.base_url).toMatch(/^https?:\/\/api\.globex\.test(:\d+)?$/);
    // Another tenant's token is unknown here; no credentials, no name.
    expect((await b.withToken(a.token)('GET', '/api/tenant')).body).toEqual(INVALID);
    expect((await b.anonymous('GET', '/api/tenant')).status).toBe(401);
  });

  it('answers on a custom domain too', async () => {
    const response = await b.withToken(b.token)('GET', '/api/user', undefined, {
      host: 'api.globex.test',
    });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(b.user.id);
  });

  it('gives the 404 envelope for an unknown host, and for unknown routes even without credentials', async () => {
    const unknownHost = await a.request('GET', '/api/user', undefined, {
      host: 'nobody.inventory.localhost',
    });
    expect(unknownHost.status).toBe(404);
    expect(unknownHost.body.errors.url[0].code).toBe('NotFound');
    const unknownRoute = await a.anonymous('GET', '/api/nope');
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.status).toBe('failure');
  });

  it('takes the scheme name in any case and with extra spaces (RFC 9110 §11.1)', async () => {
    for (const header of [`bearer ${a.token}`, `BEARER ${a.token}`, `Bearer  ${a.token}`]) {
      const response = await a.withToken(header)('GET', '/api/user');
      expect(response.status, header).toBe(200);
      expect(response.body.data.id).toBe(a.user.id);
    }
  });

  it('401 Unauthenticated without a header or with a malformed one', async () => {
    for (const header of [
      undefined,
      'Bearer',
      'Basic abc',
      `Bearer ${a.tokenId}`,
      `Bearer ${a.tokenId}|short`,
      `Token ${a.token}`,
      `Bearer${a.token}`,
      `Bearer ${a.token} x`,
    ]) {
      const response =
        header === undefined
          ? await a.anonymous('GET', '/api/user')
          : await a.withToken(header)('GET', '/api/user');
      expect(response.status, String(header)).toBe(401);
      expect(response.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it("401 envelope for unknown ids, wrong secrets and another tenant's token on this domain", async () => {
    const [id, secret] = a.token.split('|') as [string, string];
    const wrongSecret = `${id}|${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    for (const token of [`999999|${secret}`, wrongSecret]) {
      const response = await a.withToken(token)('GET', '/api/user');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID);
    }
    const crossTenant = await a.withToken(b.token)('GET', '/api/user');
    expect(crossTenant.status).toBe(401);
    expect(crossTenant.body).toEqual(INVALID);
  });

  it('an expired token is 401, indistinguishable from revoked', async () => {
    const identity = identityClient(system);
    const created = await asUser(a.tenant.id, a.user.id, () =>
      identity.call.createToken({
        name: 'short',
        scopes: [],
        ip_allowlist: [],
        input_violations: [],
        // Far enough ahead that the first request surely precedes it, however busy the machine.
        expires_at: new Date(Date.now() + 5_000),
      }),
    );
    const token = created.plain_text_token;
    expect((await a.withToken(token)('GET', '/api/user')).status).toBe(200);
    await expect
      .poll(async () => (await a.withToken(token)('GET', '/api/user')).status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(401);
    const expired = await a.withToken(token)('GET', '/api/user');
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(INVALID);
  });

  it('refuses tokens on session-only routes, and on routes missing from the table', async () => {
    for (const [method, path] of [
      ['GET', '/api/personal-access-tokens'],
      ['POST', '/api/personal-access-tokens'],
      ['PATCH', `/api/personal-access-tokens/${a.tokenId}`],
      ['DELETE', `/api/personal-access-tokens/${a.tokenId}`],
      ['GET', `/api/personal-access-tokens/${a.tokenId}/requests`],
      ['GET', `/api/personal-access-tokens/${a.tokenId}/usage`],
      ['POST', '/api/user/two-factor'],
    ] as const) {
      const response = await a.request(method, path, method === 'GET' ? undefined : {});
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual({ message: 'This endpoint is not available to API tokens.' });
    }
  });

  it('carries exact rate-limit headers on token responses', async () => {
    const identity = identityClient(system);
    const created = await asUser(a.tenant.id, a.user.id, () =>
      identity.call.createToken({
        name: 'headers',
        scopes: [],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    const before = Date.now();
    const response = await a.withToken(created.plain_text_token)('GET', '/api/user');
    const after = Date.now();
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    // A fresh token's first request spends one of its 1,000 per minute.
    expect(response.headers['x-ratelimit-remaining']).toBe('999');
    // A window of one minute: the full budget is back a minute after this request.
    const reset = Number(response.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThanOrEqual(Math.ceil((before + 60_000) / 1000));
    expect(reset).toBeLessThanOrEqual(Math.ceil((after + 60_000) / 1000));
  });
});
