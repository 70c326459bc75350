import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { GatewayHandle } from '@inventory/gateway';
import { eventually } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  httpCall,
  loginSession,
  startSecondGateway,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** Test-only routes under a resource, so scope-by-method and permissions can be exercised end to end. */
const probes = {
  access: {
    'GET /api/probe-orders': { access: { resource: 'orders' } },
    'POST /api/probe-orders': { access: { resource: 'orders' } },
    'DELETE /api/probe-orders': { access: { resource: 'orders' } },
    'POST /api/probe-subscriptions': { access: { scope: 'webhooks:manage' } },
  },
  plugin: async (app: FastifyInstance) => {
    app.get('/api/probe-orders', async (request) => ({ tenant: request.tenant }));
    app.post('/api/probe-orders', async () => ({ ok: true }));
    app.delete('/api/probe-orders', async () => ({ ok: true }));
    app.post('/api/probe-subscriptions', async () => ({ ok: true }));
    app.get('/api/probe-unlisted', async () => ({ ok: true }));
  },
} as const;

describe('two gateway replicas on shared Redis and NATS', () => {
  let system: RunningSystem;
  let second: GatewayHandle;
  const logLines: string[] = [];
  let a: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    const capture = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    // The second replica trusts loopback as a proxy (X-Forwarded-For), logs at debug level into `logLines`, and has probe routes.
    second = await startSecondGateway(
      system,
      { TRUSTED_PROXIES: '127.0.0.1', LOG_LEVEL: 'debug' },
      { extraRoutes: probes, logDestination: capture },
    );
    a = await createTenantWithToken(system, { slug: 'replicas', gatewayUrl: second.url });
  });
  afterAll(async () => {
    await second?.stop();
    await system?.stop();
  });

  const viaFirst = (fixture: TenantFixture) => (method: string, path: string) =>
    fixture.withToken(fixture.token)(method, path);

  it('a token revoked through one replica is refused by the other on the very next request', async () => {
    const user = await createUserWithToken(system, a.tenant, { gatewayUrl: second.url });
    expect((await user.request('GET', '/api/user')).status).toBe(200); // cached on the second replica now
    const session = await loginSession(user, system.gatewayUrl);
    expect(
      (await session.request('DELETE', `/api/personal-access-tokens/${user.tokenId}`)).status,
    ).toBe(204);
    const next = await user.request('GET', '/api/user');
    expect(next.status).toBe(401);
    expect(next.body.errors.token[0].code).toBe('Unauthorized');
  });

  it('a scope change made through one replica applies on the other at once', async () => {
    const user = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      scopes: ['orders:read'],
    });
    expect((await user.request('GET', '/api/probe-orders')).status).toBe(200);
    const session = await loginSession(user, system.gatewayUrl);
    expect(
      (
        await session.request('PATCH', `/api/personal-access-tokens/${user.tokenId}`, {
          scopes: ['products:read'],
        })
      ).status,
    ).toBe(200);
    const next = await user.request('GET', '/api/probe-orders');
    expect(next.status).toBe(403);
    expect(next.body).toEqual({
      message: 'Token is missing the required scope: orders:read.',
      required_scope: 'orders:read',
    });
  });

  it('the rate limit is exact at the boundary across both replicas', async () => {
    const user = await createUserWithToken(system, a.tenant, { token: { rateLimitPerMinute: 6 } });
    const onSecond = user.request;
    const onFirst = viaFirst({
      ...user,
      request: user.request,
      withToken: (t) => (m, p, b, h) =>
        httpCall(system.gatewayUrl, m, p, {
          host: user.host,
          body: b,
          headers: { authorization: `Bearer ${t}`, ...h },
        }),
    });
    const statuses: number[] = [];
    const remaining: string[] = [];
    const startedAt = Date.now();
    for (let i = 0; i < 6; i++) {
      const response =
        i % 2 === 0 ? await onFirst('GET', '/api/user') : await onSecond('GET', '/api/user');
      statuses.push(response.status);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    const refused = await onFirst('GET', '/api/user');
    const refusedAt = Date.now();
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('6');
    // A window of a minute: the next request may pass a minute after the burst's first, so
    // Retry-After is 60 s less the time the burst took, in whole seconds up.
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((60_000 - (refusedAt - startedAt)) / 1000));
    expect(refused.body).toEqual({
      message: 'Too Many Attempts.',
      retry_after_seconds: Number(refused.headers['retry-after']),
    });
    expect((await onSecond('GET', '/api/user')).status).toBe(429);
  });

  it('enforces IPv4 and IPv6 allowlists (client address from a trusted proxy)', async () => {
    const v4 = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      token: { ipAllowlist: ['203.0.113.0/24'] },
    });
    expect(
      (await v4.request('GET', '/api/user', undefined, { 'x-forwarded-for': '203.0.113.9' }))
        .status,
    ).toBe(200);
    expect(
      (await v4.request('GET', '/api/user', undefined, { 'x-forwarded-for': '::ffff:203.0.113.9' }))
        .status,
    ).toBe(200);
    const denied = await v4.request('GET', '/api/user', undefined, {
      'x-forwarded-for': '198.51.100.1',
    });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      'This token is not permitted from your IP address (198.51.100.1).',
    );
    const v6 = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      token: { ipAllowlist: ['2001:db8:1::/48'] },
    });
    expect(
      (await v6.request('GET', '/api/user', undefined, { 'x-forwarded-for': '2001:db8:1:2::7' }))
        .status,
    ).toBe(200);
    expect(
      (await v6.request('GET', '/api/user', undefined, { 'x-forwarded-for': '2001:db8:2::7' }))
        .status,
    ).toBe(403);
    // Without a trusted proxy the socket address counts (loopback here), and it is not on the list.
    const direct = await httpCall(system.gatewayUrl, 'GET', '/api/user', {
      host: v4.host,
      headers: { authorization: `Bearer ${v4.token}`, 'x-forwarded-for': '203.0.113.9' },
    });
    expect(direct.status).toBe(403);
  });

  it('scopes by HTTP method, webhooks:manage for subscriptions, deny by default', async () => {
    const reader = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      scopes: ['orders:read'],
    });
    const get = await reader.request('GET', '/api/probe-orders');
    expect(get.status).toBe(200);
    expect(get.body.tenant).toEqual({
      id: a.tenant.id,
      slug: 'replicas',
      name: 'replicas',
      host: a.host,
      base_url: `https://${a.host}`,
    });
    expect((await reader.request('HEAD', '/api/probe-orders')).status).toBe(200);
    for (const method of ['POST', 'DELETE']) {
      const response = await reader.request(method, '/api/probe-orders');
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'Token is missing the required scope: orders:write.',
        required_scope: 'orders:write',
      });
    }
    const subscriptions = await reader.request('POST', '/api/probe-subscriptions');
    expect(subscriptions.body.required_scope).toBe('webhooks:manage');
    const unlisted = await reader.request('GET', '/api/probe-unlisted');
    expect(unlisted.status).toBe(403);
    expect(unlisted.body).toEqual({ message: 'This endpoint is not available to API tokens.' });
  });

  it('a user permission denies even when the token has the scope', async () => {
    const limited = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      isOwner: false,
      permissions: ['orders:read'],
      scopes: ['orders:read', 'orders:write'],
    });
    expect((await limited.request('GET', '/api/probe-orders')).status).toBe(200);
    const write = await limited.request('POST', '/api/probe-orders');
    expect(write.status).toBe(403);
    expect(write.body.message).toBe(
      'You do not have the permission required for this action: orders:write.',
    );
    // The same rule for the user's web session.
    const session = await loginSession(limited, second.url);
    expect((await session.request('POST', '/api/probe-orders')).status).toBe(403);
    expect((await session.request('GET', '/api/probe-orders')).status).toBe(200);
  });

  it('logs every token request to identity: history with filters, usage, last_used_at', async () => {
    const user = await createUserWithToken(system, a.tenant, {
      gatewayUrl: second.url,
      scopes: ['orders:read'],
    });
    await user.request('GET', '/api/user', undefined, { 'user-agent': 'probe-agent/1.0' });
    await user.request('GET', '/api/user');
    await user.request('POST', '/api/probe-orders');
    const session = await loginSession(user, second.url);
    const path = `/api/personal-access-tokens/${user.tokenId}`;
    const history = await eventually(async () => {
      const listed = await session.request('GET', `${path}/requests`);
      expect(listed.status).toBe(200);
      expect(listed.body.total).toBe(3);
      return listed;
    }, 'the three requests in the history');
    expect(history.body.data[0]).toMatchObject({
      method: 'POST',
      route: '/api/probe-orders',
      path: '/api/probe-orders',
      status: 403,
    });
    expect(
      history.body.data.find((row: { user_agent: string }) => row.user_agent === 'probe-agent/1.0'),
    ).toMatchObject({ status: 200, route: '/api/user' });
    const failed = await session.request('GET', `${path}/requests?filter[status]=4xx&per_page=1`);
    expect(failed.body.total).toBe(1);
    expect(failed.body.first_page_url).toContain('filter%5Bstatus%5D=4xx');
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (
        await session.request(
          'GET',
          `${path}/requests?filter[date_from]=2000-01-01&filter[date_to]=2000-01-02`,
        )
      ).body.total,
    ).toBe(0);
    expect(
      (await session.request('GET', `${path}/requests?filter[date_from]=${today}`)).body.total,
    ).toBe(3);
    expect(
      (await session.request('GET', `${path}/requests?filter[date_from]=13/45/2020`)).status,
    ).toBe(422);
    const usage = await session.request('GET', `${path}/usage?days=7`);
    expect(usage.status).toBe(200);
    expect(usage.body.data).toMatchObject({ total_requests: 3, error_rate: 0.3333, days: 7 });
    expect(usage.body.data.requests_per_day).toHaveLength(7);
    expect(usage.body.data.requests_per_day.at(-1)).toEqual({
      date: today,
      requests: 3,
      errors: 1,
    });
    expect(usage.body.data.latency_ms.p95).toBeGreaterThanOrEqual(usage.body.data.latency_ms.p50);
    const list = await session.request('GET', '/api/personal-access-tokens');
    expect(
      list.body.data.find((t: { id: number }) => t.id === user.tokenId).last_used_at,
    ).not.toBeNull();
  });

  it('never writes a token secret, password, cookie or CSRF token to the logs', async () => {
    const user = await createUserWithToken(system, a.tenant, { gatewayUrl: second.url });
    await user.request('GET', '/api/user');
    await user.withToken(`${user.tokenId}|${'x'.repeat(48)}`)('GET', '/api/user');
    const session = await loginSession(user, second.url);
    const created = await session.request('POST', '/api/personal-access-tokens', {
      name: 'logged?',
    });
    const secrets = [
      user.token.split('|')[1]!,
      created.body.data.token.split('|')[1],
      user.password,
      session.cookie.split('=')[1]!,
      session.csrfToken,
    ];
    const logs = logLines.join('');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('/api/personal-access-tokens');
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });

  it('serves the OpenAPI 3.1 document (tenantless) with the route table in it', async () => {
    const response = await httpCall(second.url, 'GET', '/api/openapi.json', {
      host: 'anything.example',
    });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.paths['/api/personal-access-tokens/{id}'].patch.security).toEqual([
      { sessionCookie: [] },
    ]);
    expect(response.body.paths['/api/probe-orders'].post.security[0]).toEqual({
      bearerToken: ['orders:write'],
    });
    expect(response.body.paths['/api/user'].get.operationId).toEqual(expect.any(String));
    const docs = await httpCall(second.url, 'GET', '/api/docs', { host: 'anything.example' });
    expect(docs.status).toBe(200);
    expect(String(docs.headers['content-type'])).toMatch(/^text\/html/);
  });
});
