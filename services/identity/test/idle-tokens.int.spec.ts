import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenEvents } from '../src/events/token-events.js';
import { TokenPolicyRepository } from '../src/store/token-policy-repository.js';
import { TokenRepository } from '../src/store/token-repository.js';
import { UserRepository } from '../src/store/user-repository.js';
import { ExpireIdleTokens } from '../src/use-cases/expire-idle-tokens.js';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

const DAY = 86_400_000;

/** Unused tokens expired after a warning, once, across two passes at once (ADR 0122). */
describe('expiring unused tokens', () => {
  let identity: IdentityUnderTest;
  let tenantId: string;
  let userId: number;
  let tokens: TokenRepository;
  let pass: () => ExpireIdleTokens;

  beforeAll(async () => {
    identity = await startIdentity();
    const { service } = identity;
    tokens = new TokenRepository(service.mongo);
    pass = () =>
      new ExpireIdleTokens({
        policies: new TokenPolicyRepository(service.mongo),
        tokens,
        users: new UserRepository(service.mongo),
        outbox: service.outbox,
        events: new TokenEvents(service.outbox, service.publisher, service.logger),
      });
    const call = identity.client.call;
    tenantId = (await call.createTenant({ slug: 'idle', name: '', custom_domains: [] })).tenant!.id;
    userId = (
      await as(tenantId, undefined, () =>
        call.createUser({
          email: 'owner@idle.test',
          name: 'Olive Owner',
          password: 'password-1',
          is_owner: true,
          permissions: [],
        }),
      )
    ).user!.id;
  });
  afterAll(() => identity?.stop());

  /** A token made `madeDaysAgo` and last used `usedDaysAgo` (never: null), by the real service. */
  async function tokenIdleFor(name: string, madeDaysAgo: number, usedDaysAgo: number | null) {
    const { token } = await as(tenantId, userId, () =>
      identity.client.call.createToken({
        name,
        scopes: [],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    const now = Date.now();
    await identity.service.mongo.collection('personal_access_tokens').updateOne(
      { tenant_id: tenantId, id: token!.id },
      {
        $set: {
          created_at: new Date(now - madeDaysAgo * DAY),
          last_used_at: usedDaysAgo === null ? null : new Date(now - usedDaysAgo * DAY),
        },
      },
    );
    return token!.id;
  }
  const stored = async (id: number) =>
    (await identity.service.mongo
      .collection('personal_access_tokens')
      .findOne({ tenant_id: tenantId, id }))!;
  const setPolicy = (expire: boolean) =>
    as(tenantId, userId, () =>
      identity.client.call.setTokenPolicy({
        policy: {
          allow_no_expiry: true,
          restrict_member_scopes: false,
          member_scopes: [],
          require_ip_allowlist: false,
          flag_unused_after_days: 30,
          expire_unused: expire,
          updated_by: 0,
        },
        input_violations: [],
      }),
    );

  it('leaves tokens alone while the policy only flags them', async () => {
    const id = await tokenIdleFor('flag only', 100, 90);
    await setPolicy(false);
    expect(await pass().execute()).toBe(0);
    expect((await stored(id)).idle_warning).toBeUndefined();
  });

  it('warns once (two passes racing), then expires after 7 days; a token in use is left alone', async () => {
    const idle = await tokenIdleFor('idle', 100, 90);
    const busy = await tokenIdleFor('busy', 100, 1);
    await setPolicy(true);
    const now = new Date();
    const [first, second] = await Promise.all([pass().execute(now), pass().execute(now)]);
    expect(first + second).toBe(2); // the earlier test's token and this one, each warned once
    const warned = await stored(idle);
    expect(warned.idle_warning?.at).toEqual(now);
    expect(warned.expires_at).toBeNull();
    expect((await stored(busy)).idle_warning).toBeUndefined();
    // Six days on: still within the warning's week.
    expect(await pass().execute(new Date(now.getTime() + 6 * DAY))).toBe(0);
    const later = new Date(now.getTime() + 7 * DAY);
    const [a, b] = await Promise.all([pass().execute(later), pass().execute(later)]);
    expect(a + b).toBe(2);
    const expired = await stored(idle);
    expect(expired.expires_at).toEqual(later);
    expect(expired.expiry_alerts).toEqual([`expired@${later.getTime()}`]);
    // Its expiry is the pass's moment (a week on, in this test's clock): refused from then.
  });

  it('does not expire a warned token that was used after its warning', async () => {
    const id = await tokenIdleFor('used again', 100, 90);
    const now = new Date();
    expect(await pass().execute(now)).toBeGreaterThanOrEqual(1);
    expect((await stored(id)).idle_warning).toBeTruthy();
    // Used the next day: the request log moves last_used_at forward.
    await tokens.touchLastUsed(tenantId, new Map([[id, new Date(now.getTime() + DAY)]]));
    expect(await pass().execute(new Date(now.getTime() + 8 * DAY))).toBe(0);
    expect((await stored(id)).expires_at).toBeNull();
  });
});
