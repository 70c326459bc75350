import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { eventually, startRedisServer, waitFor, type LocalServer } from '@inventory/local-infra';
import { connectRedis, createLogger, type Redis } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteRule } from '../auth/route-access.js';
import { registerErrorHandling } from './error-handler.js';
import { registerIdempotency } from './idempotency.js';
import { IdempotencyStore } from './idempotency-store.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const DAY_MS = 86_400_000;

const TABLE: Record<string, RouteRule> = {
  'POST /things': { access: 'any-token', idempotent: true, successStatus: 201 },
  'POST /flaky': { access: 'any-token', idempotent: true },
  'POST /plain': { access: 'any-token' },
};

interface TestApp {
  app: FastifyInstance;
  /** Bodies each creating handler ran with, in order: the "rows" created. */
  created: unknown[];
  /** While set, `POST /things` waits for it before answering. */
  gate?: Promise<void>;
  /** Called when a `POST /things` starts waiting on the gate. */
  waiting?: () => void;
  /** How many more times `POST /flaky` answers 503 before it succeeds. */
  failures: number;
}

/**
 * A Fastify app with the gateway's error envelopes and the idempotency hooks, and the principal
 * set as the auth hook sets it (from test headers: `x-tenant`, `x-token` or `x-user`).
 */
async function testApp(redis: Redis, ttlMs = DAY_MS): Promise<TestApp> {
  const app = Fastify();
  const state: TestApp = { app, created: [], failures: 0 };
  registerErrorHandling(app);
  app.addHook('onRequest', (request, _reply, done) => {
    const tenant = String(request.headers['x-tenant'] ?? 'tenant-a');
    request.tenant = {
      id: tenant,
      slug: tenant,
      name: tenant,
      host: `${tenant}.test`,
      base_url: '',
    };
    const user = { id: Number(request.headers['x-user'] ?? 1), isOwner: true, permissions: [] };
    request.auth = request.headers['x-token']
      ? { kind: 'token', tokenId: Number(request.headers['x-token']), user, scopes: [] }
      : { kind: 'session', sessionToken: 's', user };
    done();
  });
  registerIdempotency(app, {
    store: new IdempotencyStore(redis, { ttlMs, leaseMs: 30_000 }),
    routeTable: TABLE,
    logger,
  });
  app.post('/things', async (request, reply) => {
    if (state.gate) {
      state.waiting?.();
      await state.gate;
    }
    const body = request.body as { name?: unknown };
    if (typeof body?.name !== 'string')
      return reply.code(422).send({
        message: 'The name field is required.',
        errors: { name: ['The name field is required.'] },
      });
    state.created.push(body);
    void reply.header('location', `/things/${state.created.length}`);
    return reply.code(201).send({ data: { id: state.created.length, name: body.name } });
  });
  app.post('/flaky', async (request, reply) => {
    if (state.failures > 0) {
      state.failures -= 1;
      return reply.code(503).send({ message: 'Try again.', code: 'unavailable' });
    }
    state.created.push(request.body);
    return { data: { ok: true } };
  });
  app.post('/plain', async (request) => {
    state.created.push(request.body);
    return { data: { n: state.created.length } };
  });
  await app.ready();
  return state;
}

type Headers = Record<string, string>;
const post = (app: FastifyInstance, url: string, body: unknown, headers: Headers = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload: body as object,
    headers: { 'x-token': '7', ...headers },
  });

describe('Idempotency-Key on a real Redis (ADR 0119)', () => {
  let server: LocalServer;
  let redis: Redis;
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'idempotency-'));
    server = await startRedisServer({ dataDir });
    redis = await connectRedis(server.url);
    t = await testApp(redis);
  });
  afterAll(async () => {
    await t?.app.close();
    redis?.disconnect();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the same key and body: the first answer again, marked replayed, and one thing created', async () => {
    const before = t.created.length;
    const key = { 'idempotency-key': 'create-widget-1' };
    const first = await post(t.app, '/things', { name: 'widget', size: 2 }, key);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Key order and spacing do not make another request; the draft's quoted spelling is the same key.
    const again = await t.app.inject({
      method: 'POST',
      url: '/things',
      payload: '{ "size": 2, "name": "widget" }',
      headers: {
        'content-type': 'application/json',
        'x-token': '7',
        'idempotency-key': '"create-widget-1"',
      },
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.body).toBe(first.body);
    expect(t.created.length).toBe(before + 1);
  });

  it('the same key with another body, or on another path, is 422 naming the problem; nothing runs', async () => {
    const key = { 'idempotency-key': 'create-widget-2' };
    expect((await post(t.app, '/things', { name: 'a' }, key)).statusCode).toBe(201);
    const before = t.created.length;
    const other = await post(t.app, '/things', { name: 'b' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      code: 'idempotency_key_reused',
      message: expect.stringContaining('already used for a different request'),
    });
    expect((await post(t.app, '/flaky', { name: 'a' }, key)).statusCode).toBe(422);
    expect((await post(t.app, '/things?x=1', { name: 'a' }, key)).statusCode).toBe(422);
    expect(t.created.length).toBe(before);
  });

  it('while the first request runs, the same key answers 409; once it is done, the replay', async () => {
    let open!: () => void;
    t.gate = new Promise<void>((resolve) => (open = resolve));
    const key = { 'idempotency-key': 'slow-1' };
    const before = t.created.length;
    const running = new Promise<void>((resolve) => (t.waiting = resolve));
    const first = post(t.app, '/things', { name: 'slow' }, key);
    await running;
    const busy = await post(t.app, '/things', { name: 'slow' }, key);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ code: 'idempotency_key_in_use', message: expect.any(String) });
    expect(busy.headers['retry-after']).toBe('1');
    // Another body under the key in flight waits too: the first answer is not known yet.
    expect((await post(t.app, '/things', { name: 'other' }, key)).statusCode).toBe(409);
    t.gate = undefined;
    open();
    expect((await first).statusCode).toBe(201);
    const replayed = await post(t.app, '/things', { name: 'slow' }, key);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(t.created.length).toBe(before + 1);
  });

  it('keys belong to their token, or user, and tenant: the same key elsewhere is a new request', async () => {
    const before = t.created.length;
    const key = 'shared-key';
    const callers: Headers[] = [
      { 'x-token': '7' },
      { 'x-token': '8' },
      { 'x-token': '7', 'x-tenant': 'tenant-b' },
      { 'x-token': '', 'x-user': '1' },
      { 'x-token': '', 'x-user': '2' },
    ];
    for (const caller of callers) {
      const answer = await post(
        t.app,
        '/things',
        { name: 'n' },
        { ...caller, 'idempotency-key': key },
      );
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(t.created.length).toBe(before + callers.length);
    // Another session of user 1 shares user 1's keys.
    const sameUser = await post(
      t.app,
      '/things',
      { name: 'n' },
      { 'x-token': '', 'x-user': '1', 'idempotency-key': key },
    );
    expect(sameUser.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps an answer 24 hours, and Redis holds neither the key nor the answer in clear', async () => {
    await post(t.app, '/things', { name: 'secret-thing' }, { 'idempotency-key': 'ttl-check-key' });
    const names = await redis.keys('idem:*');
    expect(names.length).toBeGreaterThan(0);
    expect(names.some((name) => name.includes('ttl-check-key'))).toBe(false);
    expect(names.some((name) => name.endsWith(':lock'))).toBe(false);
    for (const name of names) {
      const ttl = await redis.pttl(name);
      expect(ttl).toBeGreaterThan(DAY_MS - 60_000);
      expect(ttl).toBeLessThanOrEqual(DAY_MS);
      expect(await redis.get(name)).not.toContain('secret-thing');
    }
  });

  it('after the key expires, the same key and body run again', async () => {
    const short = await testApp(redis, 200);
    try {
      const key = { 'idempotency-key': 'expiring' };
      expect((await post(short.app, '/things', { name: 'e' }, key)).statusCode).toBe(201);
      await eventually(
        async () => {
          const answer = await post(short.app, '/things', { name: 'e' }, key);
          expect(answer.headers['idempotent-replayed']).toBeUndefined();
        },
        { timeoutMs: 10_000 },
      );
      expect(short.created.length).toBeGreaterThanOrEqual(2);
    } finally {
      await short.app.close();
    }
  });

  it('a 5xx first answer is not kept (the retry runs); a 4xx validation answer is kept', async () => {
    t.failures = 1;
    const before = t.created.length;
    const key = { 'idempotency-key': 'flaky-1' };
    expect((await post(t.app, '/flaky', { v: 1 }, key)).statusCode).toBe(503);
    const retried = await post(t.app, '/flaky', { v: 1 }, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(t.created.length).toBe(before + 1);

    const invalid = { 'idempotency-key': 'invalid-1' };
    const refused = await post(t.app, '/things', { size: 1 }, invalid);
    expect(refused.statusCode).toBe(422);
    const again = await post(t.app, '/things', { size: 1 }, invalid);
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(refused.body);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['a NUL byte', 'ab\u0000cd'],
    ['a control character', 'ab\tcd'],
    ['non-ASCII', 'clé-ünïcode'],
  ])('refuses a key that is %s with the 422 field envelope, and runs nothing', async (_, value) => {
    const before = t.created.length;
    const answer = await post(t.app, '/things', { name: 'x' }, { 'idempotency-key': value });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({
      message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
      errors: {
        'Idempotency-Key': [
          'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
        ],
      },
    });
    expect(t.created.length).toBe(before);
  });

  it('a body the parser refuses (a __proto__ key) runs nothing and does not take the key', async () => {
    const before = t.created.length;
    const key = 'proto-1';
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/things',
      payload: '{"__proto__": {"isOwner": true}, "name": "p"}',
      headers: { 'content-type': 'application/json', 'x-token': '7', 'idempotency-key': key },
    });
    expect(poisoned.statusCode).toBe(400);
    expect(t.created.length).toBe(before);
    const clean = await post(t.app, '/things', { name: 'p' }, { 'idempotency-key': key });
    expect(clean.statusCode).toBe(201);
    expect(clean.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses the header sent twice (two keys), over a real socket', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const before = t.created.length;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = request(
        `${address}/things`,
        {
          method: 'POST',
          headers: [
            ['host', 'tenant-a.test'],
            ['content-type', 'application/json'],
            ['x-token', '7'],
            ['idempotency-key', 'one'],
            ['idempotency-key', 'two'],
          ].flat(),
        },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      sent.on('error', reject);
      sent.end(JSON.stringify({ name: 'twice' }));
    });
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body).errors).toEqual({
      'Idempotency-Key': ['The Idempotency-Key header must be sent once.'],
    });
    expect(t.created.length).toBe(before);
  });

  it('takes a 255-character key; without a key, and on routes that do not opt in, every request runs', async () => {
    const long = { 'idempotency-key': 'k'.repeat(255) };
    expect((await post(t.app, '/things', { name: 'l' }, long)).statusCode).toBe(201);
    expect((await post(t.app, '/things', { name: 'l' }, long)).headers['idempotent-replayed']).toBe(
      'true',
    );
    const before = t.created.length;
    await post(t.app, '/things', { name: 'free' });
    await post(t.app, '/things', { name: 'free' });
    const plain = { 'idempotency-key': 'plain-1' };
    await post(t.app, '/plain', { name: 'p' }, plain);
    const second = await post(t.app, '/plain', { name: 'p' }, plain);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(t.created.length).toBe(before + 4);
  });

  it('Redis unreachable: a keyed request is refused 503 without running; one without a key runs', async () => {
    const downDir = mkdtempSync(join(tmpdir(), 'idempotency-down-'));
    const down = await startRedisServer({ dataDir: downDir });
    const client = await connectRedis(down.url);
    const app = await testApp(client);
    try {
      await down.stop();
      await waitFor(() => client.status !== 'ready', 'the client saw Redis go');
      const keyed = await post(app.app, '/things', { name: 'k' }, { 'idempotency-key': 'down-1' });
      expect(keyed.statusCode).toBe(503);
      expect(keyed.json()).toEqual({
        code: 'idempotency_unavailable',
        message: expect.any(String),
      });
      expect(app.created).toEqual([]);
      expect((await post(app.app, '/things', { name: 'k' })).statusCode).toBe(201);
    } finally {
      await app.app.close();
      client.disconnect();
      rmSync(downDir, { recursive: true, force: true });
    }
  });
});
