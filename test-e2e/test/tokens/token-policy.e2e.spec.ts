import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';

const TOKENS = '/api/personal-access-tokens';
const POLICY = '/api/token-policy';
const DAY = 24 * 3600 * 1000;
/** The open policy in full: a PUT names every rule (ADR 0120). */
const OPEN = {
  max_lifetime_days: null,
  allow_no_expiry: true,
  member_scopes: null,
  require_ip_allowlist: false,
};

/** A tenant's token policy through the gateway (ADR 0120), as its admins and members meet it. */
describe('the token policy', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let admin: SessionFixture;
  let member: Awaited<ReturnType<typeof createUserWithToken>>;
  let memberSession: SessionFixture;
  let governorSession: SessionFixture;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system);
    admin = await loginSession(owner, system.gatewayUrl);
    // Its fixture token never expires and has no allowlist: made before any policy.
    member = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['orders:read', 'orders:write'],
      scopes: ['orders:read', 'orders:write'],
    });
    memberSession = await loginSession(member, system.gatewayUrl);
    const governor = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['tokens:govern'],
      scopes: [],
    });
    governorSession = await loginSession(governor, system.gatewayUrl);
  });
  afterAll(() => system?.stop());

  it('is set by an admin; the tokens it flags keep working, unchanged', async () => {
    const set = await admin.request('PUT', POLICY, {
      max_lifetime_days: 30,
      allow_no_expiry: false,
      member_scopes: ['orders:read'],
      require_ip_allowlist: false,
    });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({
      max_lifetime_days: 30,
      allow_no_expiry: false,
      member_scopes: ['orders:read'],
      require_ip_allowlist: false,
      updated_by: owner.user.id,
    });
    // Every fixture token never expires (the owner's, the member's, the governor's).
    expect(set.body.data.tokens_breaking).toBe(3);

    const listed = await memberSession.request('GET', TOKENS);
    const flagged = listed.body.data.find((token: { id: number }) => token.id === member.tokenId);
    expect(flagged.policy_violations).toEqual(['no_expiry', 'member_scopes']);
    expect((await member.request('GET', '/api/user')).status).toBe(200);
    // Anyone holding a token reads it.
    const read = await member.request('GET', POLICY);
    expect(read.status).toBe(200);
    expect(read.body.data.max_lifetime_days).toBe(30);
  });

  it("answers a member's token outside it with 422, each rule against its field", async () => {
    const refused = await memberSession.request('POST', TOKENS, {
      name: 'too long',
      scopes: ['orders:write'],
      expires_at: new Date(Date.now() + 45 * DAY).toISOString(),
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.scopes).toEqual([
      "Your organisation's token policy does not let members grant orders:write.",
    ]);
    expect(refused.body.errors.expires_at[0]).toMatch(
      /^Your organisation's token policy allows at most 30 days: choose an expiry on or before \d{4}-\d{2}-\d{2}\.$/,
    );
    const never = await memberSession.request('POST', TOKENS, { name: 'never' });
    expect(never.status).toBe(422);
    expect(Object.keys(never.body.errors)).toEqual(['expires_at']);
    const within = await memberSession.request('POST', TOKENS, {
      name: 'within',
      scopes: ['orders:read'],
      expires_at: new Date(Date.now() + 29 * DAY).toISOString(),
    });
    expect(within.status).toBe(201);
    expect(within.body.data.policy_violations).toEqual([]);
  });

  it('is replaced only by a session user holding tokens:govern', async () => {
    const body = OPEN;
    const byMember = await memberSession.request('PUT', POLICY, body);
    expect(byMember.status).toBe(403);
    expect((await owner.request('PUT', POLICY, body)).status).toBe(403);
    const reopened = await governorSession.request('PUT', POLICY, body);
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({ max_lifetime_days: null, tokens_breaking: 0 });
    const listed = await memberSession.request('GET', TOKENS);
    for (const token of listed.body.data) expect(token.policy_violations).toEqual([]);
  });

  it('refuses a bad policy with every field named, and a policy of another tenant never applies', async () => {
    const bad = await admin.request('PUT', POLICY, {
      max_lifetime_days: 'ninety',
      allow_no_expiry: 'no',
      member_scopes: ['orders:read', '__proto__', 'x\u0000'],
      require_ip_allowlist: 1,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'allow_no_expiry',
      'max_lifetime_days',
      'member_scopes.1',
      'member_scopes.2',
      'require_ip_allowlist',
    ]);
    await admin.request('PUT', POLICY, { ...OPEN, require_ip_allowlist: true });
    const other = await createTenantWithToken(system);
    const otherSession = await loginSession(other, system.gatewayUrl);
    const free = await otherSession.request('POST', TOKENS, { name: 'free' });
    expect(free.status).toBe(201);
    expect((await otherSession.request('GET', POLICY)).body.data.require_ip_allowlist).toBe(false);
  });

  it('refuses a PUT that leaves a rule out, naming each, and keeps the policy in force', async () => {
    await admin.request('PUT', POLICY, { ...OPEN, require_ip_allowlist: true });
    const partial = await admin.request('PUT', POLICY, { allow_no_expiry: true });
    expect(partial.status).toBe(422);
    expect(Object.keys(partial.body.errors).sort()).toEqual([
      'max_lifetime_days',
      'member_scopes',
      'require_ip_allowlist',
    ]);
    expect((await admin.request('GET', POLICY)).body.data.require_ip_allowlist).toBe(true);
    await admin.request('PUT', POLICY, OPEN);
  });

  it('expires unused tokens only with a period to count: 422 without one, kept with one', async () => {
    const without = await admin.request('PUT', POLICY, { ...OPEN, expire_unused: true });
    expect(without.status).toBe(422);
    expect(Object.keys(without.body.errors)).toEqual(['expire_unused']);
    const kept = await admin.request('PUT', POLICY, {
      ...OPEN,
      flag_unused_after_days: 60,
      expire_unused: true,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ flag_unused_after_days: 60, expire_unused: true });
    expect((await member.request('GET', POLICY)).body.data.expire_unused).toBe(true);
    await admin.request('PUT', POLICY, OPEN);
  });
});
