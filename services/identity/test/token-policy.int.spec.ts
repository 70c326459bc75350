import { connectMongo, describeCallError } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

const DAY_MS = 86_400_000;

/** A tenant's token policy through the real service (ADR 0120): enforced, flagged, per tenant. */
describe('the token policy', () => {
  let identity: IdentityUnderTest;
  let tenantId: string;
  let ownerId: number;
  let memberId: number;
  let memberTokenId: number;

  const call = () => identity.client.call;
  const fieldsOf = (error: unknown) =>
    Object.fromEntries(
      (describeCallError(error).fieldViolations ?? []).map((violation) => [
        violation.field,
        violation.description,
      ]),
    );
  const refusal = (attempt: Promise<unknown>) =>
    attempt.then(
      () => {
        throw new Error('accepted');
      },
      (error: unknown) => ({ code: describeCallError(error).code, fields: fieldsOf(error) }),
    );

  beforeAll(async () => {
    identity = await startIdentity();
    const { tenant } = await call().createTenant({ slug: 'policy', name: '', custom_domains: [] });
    tenantId = tenant!.id;
    const user = (isOwner: boolean, email: string) =>
      as(tenantId, undefined, () =>
        call().createUser({
          email,
          name: email,
          password: 'password-1',
          is_owner: isOwner,
          permissions: isOwner ? [] : ['orders:read', 'orders:write'],
        }),
      );
    ownerId = (await user(true, 'owner@policy.test')).user!.id;
    memberId = (await user(false, 'member@policy.test')).user!.id;
    // Made under the open policy: never expires, a write scope, no allowlist.
    memberTokenId = (
      await as(tenantId, memberId, () =>
        call().createToken({
          name: 'before',
          scopes: ['orders:read', 'orders:write'],
          ip_allowlist: [],
          input_violations: [],
        }),
      )
    ).token!.id;
  });
  afterAll(() => identity?.stop());

  it('is open until set, and counts the tokens a new policy flags without changing them', async () => {
    const open = await as(tenantId, memberId, () => call().getTokenPolicy({}));
    expect(open.policy).toMatchObject({
      allow_no_expiry: true,
      restrict_member_scopes: false,
      require_ip_allowlist: false,
      updated_by: 0,
    });
    expect(open.policy!.max_lifetime_days).toBeUndefined();

    const set = await as(tenantId, ownerId, () =>
      call().setTokenPolicy({
        policy: {
          max_lifetime_days: 30,
          allow_no_expiry: false,
          restrict_member_scopes: true,
          member_scopes: ['orders:read'],
          require_ip_allowlist: true,
          updated_by: 0,
          expire_unused: false,
        },
        input_violations: [],
      }),
    );
    expect(set.tokens_breaking).toBe(1);
    expect(set.policy).toMatchObject({ max_lifetime_days: 30, updated_by: ownerId });
    expect((await as(tenantId, memberId, () => call().getTokenPolicy({}))).policy).toEqual(
      set.policy,
    );

    const listed = await as(tenantId, memberId, () => call().listTokens({ page: 1, per_page: 10 }));
    const flagged = listed.tokens.find((token) => token.id === memberTokenId)!;
    expect(flagged.policy_violations).toEqual(['no_expiry', 'member_scopes', 'ip_allowlist']);
    expect(flagged.scopes).toEqual(['orders:read', 'orders:write']);
    expect(flagged.expires_at).toBeUndefined();
  });

  it("refuses a member's token outside it, naming each rule against its field", async () => {
    const refused = await refusal(
      as(tenantId, memberId, () =>
        call().createToken({
          name: 'too much',
          scopes: ['orders:write'],
          expires_at: new Date(Date.now() + 31 * DAY_MS),
          ip_allowlist: [],
          input_violations: [],
        }),
      ),
    );
    expect(refused.code).toBe(3);
    expect(Object.keys(refused.fields).sort()).toEqual(['expires_at', 'ip_allowlist', 'scopes']);
    expect(refused.fields.scopes).toBe(
      "Your organisation's token policy does not let members grant orders:write.",
    );
    expect(refused.fields.expires_at).toMatch(/allows at most 30 days/);
    expect(refused.fields.ip_allowlist).toBe(
      "Your organisation's token policy requires an IP allowlist.",
    );
    const total = (await as(tenantId, memberId, () => call().listTokens({ page: 1, per_page: 10 })))
      .total;
    expect(total).toBe(1);

    const within = await as(tenantId, memberId, () =>
      call().createToken({
        name: 'within',
        scopes: ['orders:read'],
        expires_at: new Date(Date.now() + 29 * DAY_MS),
        ip_allowlist: ['10.0.0.0/8'],
        input_violations: [],
      }),
    );
    expect(within.token!.policy_violations).toEqual([]);
  });

  it("lets an owner grant any scope, but holds the owner's expiry and allowlist to it", async () => {
    const made = await as(tenantId, ownerId, () =>
      call().createToken({
        name: 'owner',
        scopes: ['orders:write', 'webhooks:manage'],
        expires_at: new Date(Date.now() + 10 * DAY_MS),
        ip_allowlist: ['192.0.2.0/24'],
        input_violations: [],
      }),
    );
    expect(made.token!.scopes).toEqual(['orders:write', 'webhooks:manage']);
    const refused = await refusal(
      as(tenantId, ownerId, () =>
        call().createToken({ name: 'never', scopes: [], ip_allowlist: [], input_violations: [] }),
      ),
    );
    expect(Object.keys(refused.fields).sort()).toEqual(['expires_at', 'ip_allowlist']);
  });

  it('lets a flagged token be renamed, but an edit may not add what the policy refuses', async () => {
    const renamed = await as(tenantId, memberId, () =>
      call().updateToken({ id: memberTokenId, name: 'renamed', input_violations: [] }),
    );
    expect(renamed.token!.name).toBe('renamed');
    const refused = await refusal(
      as(tenantId, memberId, () =>
        call().updateToken({
          id: memberTokenId,
          scopes: { values: ['orders:read', 'orders:write'] },
          input_violations: [],
          password: 'password-1',
        }),
      ),
    );
    expect(Object.keys(refused.fields)).toEqual(['scopes']);
  });

  it('holds a regenerated token to the whole policy, as a new one', async () => {
    const refused = await refusal(
      as(tenantId, memberId, () =>
        call().regenerateToken({
          id: memberTokenId,
          expires_at: new Date(Date.now() + 60 * DAY_MS),
          input_violations: [],
        }),
      ),
    );
    expect(Object.keys(refused.fields).sort()).toEqual(['expires_at', 'ip_allowlist', 'scopes']);
    const regenerated = await as(tenantId, memberId, () =>
      call().regenerateToken({
        id: memberTokenId,
        expires_at: new Date(Date.now() + 7 * DAY_MS),
        scopes: { values: ['orders:read'] },
        ip_allowlist: { values: ['10.1.0.0/16'] },
        input_violations: [],
      }),
    );
    expect(regenerated.token!.policy_violations).toEqual([]);
    const listed = await as(tenantId, memberId, () => call().listTokens({ page: 1, per_page: 10 }));
    expect(listed.tokens.find((token) => token.id === memberTokenId)!.policy_violations).toEqual(
      [],
    );
  });

  it('refuses a contradictory or unknown policy whole, and keeps the one in force', async () => {
    const refused = await refusal(
      as(tenantId, ownerId, () =>
        call().setTokenPolicy({
          policy: {
            max_lifetime_days: 0,
            allow_no_expiry: true,
            restrict_member_scopes: true,
            member_scopes: ['__proto__'],
            require_ip_allowlist: false,
            updated_by: 0,
            expire_unused: false,
          },
          input_violations: [],
        }),
      ),
    );
    expect(Object.keys(refused.fields).sort()).toEqual([
      'allow_no_expiry',
      'max_lifetime_days',
      'member_scopes.0',
    ]);
    const kept = await as(tenantId, ownerId, () => call().getTokenPolicy({}));
    expect(kept.policy!.max_lifetime_days).toBe(30);
  });

  it("is one tenant's: another tenant's tokens follow the open policy", async () => {
    const { tenant } = await call().createTenant({
      slug: 'policy-other',
      name: '',
      custom_domains: [],
    });
    const { user } = await as(tenant!.id, undefined, () =>
      call().createUser({
        email: 'member@other.test',
        name: 'm',
        password: 'password-1',
        is_owner: false,
        permissions: ['orders:write'],
      }),
    );
    const made = await as(tenant!.id, user!.id, () =>
      call().createToken({
        name: 'free',
        scopes: ['orders:write'],
        ip_allowlist: [],
        input_violations: [],
      }),
    );
    expect(made.token!.expires_at).toBeUndefined();
    expect(made.token!.policy_violations).toEqual([]);
  });

  it('flags a token unused for longer than the policy says, for review: still listed, still working', async () => {
    const made = await as(tenantId, memberId, () =>
      call().createToken({
        name: 'idle',
        scopes: ['orders:read'],
        expires_at: new Date(Date.now() + 20 * DAY_MS),
        ip_allowlist: ['10.0.0.0/8'],
        input_violations: [],
      }),
    );
    // Its creation and last use moved 100 days back, as if it had sat idle since.
    const connection = await connectMongo(identity.infra.mongoUrl, identity.dbName);
    try {
      const longAgo = new Date(Date.now() - 100 * DAY_MS);
      await connection
        .collection('personal_access_tokens')
        .updateOne(
          { tenant_id: tenantId, id: made.token!.id },
          { $set: { created_at: longAgo, last_used_at: longAgo } },
        );
    } finally {
      await connection.close();
    }
    const flags = async () =>
      (
        await as(tenantId, memberId, () => call().listTokens({ page: 1, per_page: 10 }))
      ).tokens.find((token) => token.id === made.token!.id)!.policy_violations;
    expect(await flags()).toEqual([]);
    const set = await as(tenantId, ownerId, () =>
      call().setTokenPolicy({
        policy: {
          max_lifetime_days: 30,
          allow_no_expiry: false,
          restrict_member_scopes: true,
          member_scopes: ['orders:read'],
          require_ip_allowlist: true,
          flag_unused_after_days: 90,
          updated_by: 0,
          expire_unused: false,
        },
        input_violations: [],
      }),
    );
    expect(set.policy!.flag_unused_after_days).toBe(90);
    expect(await flags()).toEqual(['unused']);
  });
});
