import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

/** The tenant's members by id (ADR 0124), through the real service. */
describe("ListMembers: who the tenant's user ids are", () => {
  let identity: IdentityUnderTest;
  let tenantId: string;
  let otherTenantId: string;
  const ids: number[] = [];
  const call = () => identity.client.call;

  beforeAll(async () => {
    identity = await startIdentity();
    const tenant = async (slug: string) =>
      (await call().createTenant({ slug, name: '', custom_domains: [] })).tenant!.id;
    tenantId = await tenant('members');
    otherTenantId = await tenant('members-other');
    const user = (tenant: string, email: string, name: string) =>
      as(tenant, undefined, () =>
        call().createUser({
          email,
          name,
          password: 'password-1',
          is_owner: false,
          permissions: [],
        }),
      );
    for (const [email, name] of [
      ['ada@members.test', 'Ada Admin'],
      ['max@members.test', 'Max Member'],
      ['zoe@members.test', 'Zoe Zed'],
    ])
      ids.push((await user(tenantId, email!, name!)).user!.id);
    await user(otherTenantId, 'eve@other.test', 'Eve Elsewhere');
  });
  afterAll(() => identity?.stop());

  it("pages the caller's tenant's members by id with name and email only, never another tenant's", async () => {
    const first = await as(tenantId, ids[0], () => call().listMembers({ page: 1, per_page: 2 }));
    expect(first).toEqual({
      total: 3,
      members: [
        { id: ids[0], name: 'Ada Admin', email: 'ada@members.test' },
        { id: ids[1], name: 'Max Member', email: 'max@members.test' },
      ],
    });
    const second = await as(tenantId, ids[0], () => call().listMembers({ page: 2, per_page: 2 }));
    expect(second.members.map((member) => member.name)).toEqual(['Zoe Zed']);
    const other = await as(otherTenantId, undefined, () =>
      call().listMembers({ page: 1, per_page: 10 }),
    );
    expect(other.members.map((member) => member.name)).toEqual(['Eve Elsewhere']);
  });

  it('refuses a page past the shared page limits with INVALID_ARGUMENT', async () => {
    for (const page of [
      { page: 1, per_page: 101 },
      { page: -1, per_page: 10 },
    ])
      await expect(as(tenantId, ids[0], () => call().listMembers(page))).rejects.toMatchObject({
        code: 3,
      });
  });
});
