import { describeCallError } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

/** Every member's tokens for the tenant's admins (ADR 0121), through the real service. */
describe("an admin's view of every member's tokens", () => {
  let identity: IdentityUnderTest;
  let tenantId: string;
  let adminId: number;
  let memberId: number;
  let memberTokenId: number;
  const call = () => identity.client.call;

  beforeAll(async () => {
    identity = await startIdentity();
    const { tenant } = await call().createTenant({ slug: 'review', name: '', custom_domains: [] });
    tenantId = tenant!.id;
    const user = (isOwner: boolean, email: string, name: string) =>
      as(tenantId, undefined, () =>
        call().createUser({
          email,
          name,
          password: 'password-1',
          is_owner: isOwner,
          permissions: isOwner ? [] : ['orders:read'],
        }),
      );
    adminId = (await user(true, 'admin@review.test', 'Ada Admin')).user!.id;
    memberId = (await user(false, 'max@review.test', 'Max Member')).user!.id;
    const make = (userId: number, name: string) =>
      as(tenantId, userId, () =>
        call().createToken({
          name,
          scopes: ['orders:read'],
          ip_allowlist: [],
          input_violations: [],
        }),
      );
    await make(adminId, 'admin ci');
    memberTokenId = (await make(memberId, 'member script')).token!.id;
  });
  afterAll(() => identity?.stop());

  it("lists every member's unrevoked tokens with their owner, newest first, or one member's", async () => {
    const all = await as(tenantId, adminId, () =>
      call().listTenantTokens({ page: 1, per_page: 10 }),
    );
    expect(all.total).toBe(2);
    expect(
      all.tokens.map((row) => [row.token!.name, row.user_name, row.user_email, row.state]),
    ).toEqual([
      ['member script', 'Max Member', 'max@review.test', 'active'],
      ['admin ci', 'Ada Admin', 'admin@review.test', 'active'],
    ]);
    expect(all.tokens[0]!.last_used_ip).toBe('');
    const one = await as(tenantId, adminId, () =>
      call().listTenantTokens({ page: 1, per_page: 10, user_id: memberId }),
    );
    expect(one.tokens.map((row) => row.token!.id)).toEqual([memberTokenId]);
  });

  // The alert to its owner and the activity row: test-e2e/test/tokens/tenant-tokens.e2e.spec.ts.
  it("revokes a member's token at once; a second time, or another tenant's, is not found", async () => {
    await as(tenantId, adminId, () => call().revokeTenantToken({ id: memberTokenId }));
    const mine = await as(tenantId, memberId, () => call().listTokens({ page: 1, per_page: 10 }));
    expect(mine.tokens).toEqual([]);
    const auth = await as(tenantId, undefined, () =>
      call()
        .getTokenForAuth({ token_id: memberTokenId })
        .catch((error: unknown) => describeCallError(error).reason),
    );
    expect(auth).toBe('not_found');
    // Gone already: a second revocation, an unknown id and another tenant's id are all not found.
    const { tenant: other } = await call().createTenant({
      slug: 'review-other',
      name: '',
      custom_domains: [],
    });
    for (const attempt of [
      () => as(tenantId, adminId, () => call().revokeTenantToken({ id: memberTokenId })),
      () => as(tenantId, adminId, () => call().revokeTenantToken({ id: 999_999 })),
      () => as(other!.id, adminId, () => call().revokeTenantToken({ id: memberTokenId })),
    ])
      expect(await attempt().catch((error: unknown) => describeCallError(error).reason)).toBe(
        'not_found',
      );
  });
});
