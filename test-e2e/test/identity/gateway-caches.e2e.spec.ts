import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asUser,
  createTenantWithToken,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

/** How many calls of one identity method have been answered, from identity's own metrics. */
async function identityCalls(system: RunningSystem, method: string): Promise<number> {
  const metric = await system.services
    .identity!.metrics.registry.getSingleMetric('grpc_server_handled_total')!
    .get();
  return metric.values
    .filter((value) => value.labels.grpc_method === method)
    .reduce((sum, value) => sum + value.value, 0);
}

/**
 * The gateway's token and tenant caches against the real identity service: a miss
 * is one identity call however many requests miss together (no stampede when an
 * entry expires under load), and an invalidation overtaking a load is never
 * undone by that load.
 */
describe("the gateway's token and tenant caches", () => {
  let system: RunningSystem;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    system = await startSystem();
    a = await createTenantWithToken(system, { slug: 'cache-a' });
    b = await createTenantWithToken(system, { slug: 'cache-b' });
  });
  afterAll(() => system?.stop());

  it('loads a token once for many requests that miss together, per tenant', async () => {
    const tokens = system.gateway.auth.tokens;
    tokens.clear();
    const before = await identityCalls(system, 'getTokenForAuth');
    const own = Array.from({ length: 30 }, () =>
      asUser(a.tenant.id, undefined, () => tokens.get(a.tenant.id, a.tokenId)),
    );
    // Tenant B presenting A's token id at the same time: its own look-up, refused, and it
    // neither spoils A's load nor evicts A's entry.
    const foreign = Array.from({ length: 5 }, () =>
      asUser(b.tenant.id, undefined, () => tokens.get(b.tenant.id, a.tokenId)),
    );
    const [ownAnswers, foreignAnswers] = await Promise.all([
      Promise.all(own),
      Promise.all(foreign),
    ]);
    expect(ownAnswers.every((answer) => answer?.record.id === a.tokenId)).toBe(true);
    expect(foreignAnswers.every((answer) => answer === undefined)).toBe(true);
    expect((await identityCalls(system, 'getTokenForAuth')) - before).toBe(2);

    const cached = await asUser(a.tenant.id, undefined, () => tokens.get(a.tenant.id, a.tokenId));
    expect(cached?.record.id).toBe(a.tokenId);
    expect((await identityCalls(system, 'getTokenForAuth')) - before).toBe(2);
  });

  it('does not cache a load that an invalidation overtook', async () => {
    const tokens = system.gateway.auth.tokens;
    tokens.clear();
    const before = await identityCalls(system, 'getTokenForAuth');
    const inFlight = asUser(a.tenant.id, undefined, () => tokens.get(a.tenant.id, a.tokenId));
    // A revocation or edit event arrives while the load is under way.
    tokens.invalidate(a.tokenId);
    expect((await inFlight)?.record.id).toBe(a.tokenId);
    // The next request asks identity again instead of trusting what may predate the change.
    await asUser(a.tenant.id, undefined, () => tokens.get(a.tenant.id, a.tokenId));
    expect((await identityCalls(system, 'getTokenForAuth')) - before).toBe(2);
  });

  it('resolves a host once for many requests that miss together', async () => {
    const resolver = system.gateway.auth.tenants;
    const host = 'cache-a.inventory.localhost';
    const before = await identityCalls(system, 'resolveTenant');
    // No request has been made on this host yet, so every one of these misses.
    const answers = await Promise.all(Array.from({ length: 20 }, () => resolver.resolve(host)));
    expect(answers.every((tenant) => tenant?.id === a.tenant.id)).toBe(true);
    expect((await identityCalls(system, 'resolveTenant')) - before).toBe(1);
  });

  it("reads a cached token without a promise for its own tenant only, never for another's", async () => {
    const tokens = system.gateway.auth.tokens;
    tokens.clear();
    expect(tokens.cached(a.tenant.id, a.tokenId)).toBeUndefined();
    await asUser(a.tenant.id, undefined, () => tokens.get(a.tenant.id, a.tokenId));
    expect(tokens.cached(a.tenant.id, a.tokenId)?.record.id).toBe(a.tokenId);
    expect(tokens.cached(b.tenant.id, a.tokenId)).toBeUndefined();
    tokens.invalidate(a.tokenId);
    expect(tokens.cached(a.tenant.id, a.tokenId)).toBeUndefined();
  });

  it('reads a cached tenant without a promise only under the spelling resolve caches', async () => {
    const resolver = system.gateway.auth.tenants;
    const host = 'cache-b.inventory.localhost';
    expect((await resolver.resolve(`${host.toUpperCase()}.`))?.id).toBe(b.tenant.id);
    expect(resolver.cached(host)?.id).toBe(b.tenant.id);
    // Another spelling is left to resolve, which normalises it.
    expect(resolver.cached(host.toUpperCase())).toBeUndefined();
    expect(resolver.cached('no-such-tenant.inventory.localhost')).toBeUndefined();
  });
});
