import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import {
  IdentityServiceService,
  type GetTokenForAuthRequest,
  type GetTokenForAuthResponse,
  type ResolveTenantRequest,
  type ResolveTenantResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import { startRedisServer, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter, type IdentityAdapter } from '../adapters/identity.js';
import { registerAuthHook } from './auth-hook.js';
import { RateLimiter } from './rate-limiter.js';
import { TenantResolver } from './tenancy.js';
import { TokenCache } from './token-cache.js';

const HOUR = 3_600_000;
const SECRET = 'a'.repeat(40);

/** A fake identity (a real gRPC server of the proto) that knows one tenant and one token. */
async function startFakeIdentity() {
  const server = new Server();
  server.addService(IdentityServiceService, {
    resolveTenant: (
      call: ServerUnaryCall<ResolveTenantRequest, ResolveTenantResponse>,
      callback: sendUnaryData<ResolveTenantResponse>,
    ) =>
      callback(
        null,
        call.request.host === 'acme.test'
          ? { tenant: { id: 't1', slug: 'acme', name: 'Acme', domains: [] } }
          : {},
      ),
    getTokenForAuth: (
      call: ServerUnaryCall<GetTokenForAuthRequest, GetTokenForAuthResponse>,
      callback: sendUnaryData<GetTokenForAuthResponse>,
    ) =>
      callback(null, {
        token: {
          id: call.request.token_id,
          tenant_id: 't1',
          user_id: 1,
          secret_hash: createHash('sha256').update(SECRET).digest('hex'),
          scopes: [],
          ip_allowlist: [],
          rate_limit_per_minute: 0,
          user_is_owner: true,
          user_permissions: [],
        },
      }),
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

/**
 * ADR 0718 through the composed hook: a request whose tenant, token and rate-limit slot the
 * replica already holds passes every step without a promise, so the hook after it runs before
 * any microtask does.
 */
describe('the auth hook', () => {
  const logger = createLogger({ service: 'test', level: 'silent' });
  let server: LocalServer;
  let dataDir: string;
  let redis: Redis;
  let identity: Awaited<ReturnType<typeof startFakeIdentity>>;
  let adapter: IdentityAdapter;
  let tokens: TokenCache;
  let app: FastifyInstance;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'auth-hook-'));
    server = await startRedisServer({ dataDir });
    redis = await connectRedis(server.url);
    identity = await startFakeIdentity();
    adapter = createIdentityAdapter(identity.address, { deadlineMs: 60_000 });
    tokens = new TokenCache(adapter, HOUR, logger);

    /** Per request: whether a microtask has run since the first hook. */
    const turned = new WeakMap<FastifyRequest, { value: boolean }>();
    app = Fastify();
    app.addHook('onRequest', (request, _reply, done) => {
      const flag = { value: false };
      turned.set(request, flag);
      queueMicrotask(() => (flag.value = true));
      done();
    });
    registerAuthHook(app, {
      identity: adapter,
      tenants: new TenantResolver(adapter, {
        publicScheme: 'http',
        publicPort: 80,
        cacheTtlMs: HOUR,
        negativeCacheTtlMs: HOUR,
      }),
      tokens,
      limiter: new RateLimiter(redis, logger, {
        failOpenMs: 0,
        periodMs: 86_400_000,
        leases: { now: () => 0 },
      }),
      routeTable: { 'GET /probe': { access: 'any-token' } },
      platformRateLimit: 1_000,
      logger,
    });
    app.get('/probe', (request, reply) => {
      void reply.send({ synchronous: !turned.get(request)!.value, tenant: request.tenant.id });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    tokens?.stop();
    adapter?.close();
    identity?.stop();
    redis?.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a request whose tenant, token and rate-limit slot are held without a promise', async () => {
    const call = () =>
      app.inject({
        url: '/probe',
        headers: { host: 'acme.test', authorization: `Bearer 7|${SECRET}` },
      });
    // The first request loads the tenant and the token; the second takes a lease of two slots
    // from Redis (ADR 0717); the third is the lease's second slot, everything held.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await call());
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.json())).toEqual([
      { synchronous: false, tenant: 't1' },
      { synchronous: false, tenant: 't1' },
      { synchronous: true, tenant: 't1' },
    ]);
    expect(answers[2]!.headers['x-ratelimit-limit']).toBe('1000');
  });

  it('still answers a wrong secret 401 and an unknown host 404 on the held path', async () => {
    const wrong = await app.inject({
      url: '/probe',
      headers: { host: 'acme.test', authorization: `Bearer 7|${'b'.repeat(40)}` },
    });
    expect(wrong.statusCode).toBe(401);
    const unknown = await app.inject({
      url: '/probe',
      headers: { host: 'other.test', authorization: `Bearer 7|${SECRET}` },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
