import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** How many look-ups identity has answered on its StreamUsers streams, from its own metrics. */
async function batchCalls(system: RunningSystem): Promise<number> {
  const metric = await system.services
    .identity!.metrics.registry.getSingleMetric('grpc_server_handled_total')!
    .get();
  return metric.values
    .filter((value) => value.labels.grpc_method === 'streamUsers')
    .reduce((sum, value) => sum + value.value, 0);
}

describe('GET /api/user batches concurrent look-ups without mixing callers', () => {
  let system: RunningSystem;
  let a: TenantFixture;
  let aSecond: Omit<TenantFixture, 'tenant'>;
  let b: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    a = await createTenantWithToken(system, { slug: 'batch-a' });
    aSecond = await createUserWithToken(system, a.tenant, { email: 'second@batch-a.test' });
    b = await createTenantWithToken(system, { slug: 'batch-b' });
  });
  afterAll(() => system?.stop());

  it('sends one identity look-up per tenant for the look-ups of one loop turn', async () => {
    const callers = [
      { tenantId: a.tenant.id, user: a.user },
      { tenantId: a.tenant.id, user: aSecond.user },
      { tenantId: b.tenant.id, user: b.user },
    ];
    // Users the fixtures' set-up already loaded would be answered from the gateway's user cache.
    system.gateway.auth.users.clear();
    const before = await batchCalls(system);
    // Issued synchronously, so all of them are in the same turn whatever the machine's speed.
    const users = await Promise.all(
      Array.from({ length: 20 }, () => callers)
        .flat()
        .map((caller) => system.gateway.auth.currentUsers.load(caller.tenantId, caller.user.id)),
    );
    expect(await batchCalls(system)).toBe(before + 2);
    users.forEach((user, index) => {
      const caller = callers[index % callers.length]!;
      expect(user).toMatchObject({ id: caller.user.id, email: caller.user.email });
    });
  });

  it('answers each of many concurrent requests with its own user, in fewer identity calls', async () => {
    const callers = [a, aSecond, b];
    // Warm the gateway's tenant and token caches so only the user look-ups remain.
    for (const caller of callers)
      expect((await caller.request('GET', '/api/user')).status).toBe(200);
    // ...and empty its user cache (ADR 0109), so the user look-ups are what these requests share.
    system.gateway.auth.users.clear();

    const before = await batchCalls(system);
    const rounds = 20;
    const responses = await Promise.all(
      Array.from({ length: rounds }, () => callers)
        .flat()
        .map((caller) =>
          system.gateway.app.inject({
            method: 'GET',
            url: '/api/user',
            headers: { host: caller.host, authorization: `Bearer ${caller.token}` },
          }),
        ),
    );
    const calls = (await batchCalls(system)) - before;

    responses.forEach((response, index) => {
      const caller = callers[index % callers.length]!;
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ id: caller.user.id, email: caller.user.email });
    });
    // Every answer came from an identity read, and the reads were shared. How many turns the
    // requests spread over depends on how Redis's rate-limit replies arrive (the test above
    // pins the one-turn case), so this only checks that sharing happened at all.
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(responses.length / 2);
  });
});

// A system of its own: the test takes identity away for good.
describe('GET /api/user without identity', () => {
  let system: RunningSystem;
  let a: TenantFixture;

  beforeAll(async () => {
    // A call deadline no test outlives: a look-up that waited for it instead of failing fast
    // would time the test out rather than pass on a quick machine.
    system = await startSystem({ gatewayEnv: { GRPC_DEADLINE_MS: String(60 * 60_000) } });
    a = await createTenantWithToken(system, { slug: 'batch-gone' });
  });
  afterAll(() => system?.stop());

  it('fails fast with 503 when identity ends its streams and goes away', async () => {
    expect((await a.request('GET', '/api/user')).status).toBe(200);
    await system.services.identity!.grpc!.stop();
    // A user still in the gateway's cache is answered without identity (ADR 0109); a look-up is the subject here.
    system.gateway.auth.users.clear();
    // Neither the ended stream nor a new one to a closed port waits for the (one-hour) deadline.
    const response = await a.request('GET', '/api/user');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ message: expect.any(String), code: expect.any(String) });
  });
});
