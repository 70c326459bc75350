import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityServiceClient } from '@inventory/contracts/activity/v1/activity.js';
import { eventually } from '@inventory/local-infra';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import {
  activityRowsOf,
  createTenantWithToken,
  createUserWithToken,
  loginSession,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';

const ORG = '/api/organization/personal-access-tokens';

/** The tenant's admins review and revoke every member's tokens (ADR 0121). */
describe("an admin's view of every member's tokens", () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let admin: SessionFixture;
  let member: Awaited<ReturnType<typeof createUserWithToken>>;
  let activity: GrpcClientHandle<ActivityServiceClient>;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system);
    admin = await loginSession(owner, system.gatewayUrl);
    member = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['orders:read'],
      scopes: ['orders:read'],
      token: { name: 'member script' },
    });
    activity = createGrpcClient(ActivityServiceClient, system.services.activity!.grpc!.address, {
      deadlineMs: 10_000,
    });
  });
  afterAll(async () => {
    activity?.close();
    await system?.stop();
  });

  it("lists every member's tokens with their owner and where each was last used", async () => {
    expect(
      (await member.request('GET', '/api/user', undefined, { 'user-agent': 'nightly-sync/2.1' }))
        .status,
    ).toBe(200);
    const row = await eventually(async () => {
      const listed = await admin.request('GET', `${ORG}?filter[user_id]=${member.user.id}`);
      expect(listed.status).toBe(200);
      const found = listed.body.data.find((token: { id: number }) => token.id === member.tokenId);
      expect(found.last_used_at).not.toBeNull();
      expect(found.last_used_user_agent).toBe('nightly-sync/2.1');
      return found;
    }, 'the last use in the list');
    expect(row).toMatchObject({
      name: 'member script',
      state: 'active',
      user: { id: member.user.id, email: member.user.email },
      last_used_ip: expect.stringMatching(/127\.0\.0\.1/),
      policy_violations: [],
    });
    const all = await admin.request('GET', ORG);
    expect(all.body.total).toBe(2);
    expect(all.body.data.map((token: { user: { id: number } }) => token.user.id).sort()).toEqual(
      [owner.user.id, member.user.id].sort(),
    );
  });

  it('is closed to members without tokens:govern, and to tokens', async () => {
    const memberSession = await loginSession(member, system.gatewayUrl);
    expect((await memberSession.request('GET', ORG)).status).toBe(403);
    expect((await memberSession.request('DELETE', `${ORG}/${owner.tokenId}`)).status).toBe(403);
    expect((await owner.request('GET', ORG)).status).toBe(403);
  });

  it("revokes a member's token: the next request is 401, the owner is alerted, the log says who", async () => {
    expect((await admin.request('DELETE', `${ORG}/${member.tokenId}`)).status).toBe(204);
    expect((await member.request('GET', '/api/user')).status).toBe(401);
    // In the owner's alerts (they hold no alerts:view), not in the admin's.
    const memberSession = await loginSession(member, system.gatewayUrl);
    const revocationAlertOf = async (reader: SessionFixture) =>
      (await reader.request('GET', '/api/alerts?per_page=100')).body.data.find(
        (row: { kind: string }) => row.kind === 'token_revoked_by_admin',
      );
    const alert = await eventually(async () => {
      const found = await revocationAlertOf(memberSession);
      expect(found).toBeDefined();
      return found;
    }, 'the revocation alert');
    expect(alert.recipient_user_id).toBe(member.user.id);
    expect(await revocationAlertOf(admin)).toBeUndefined();
    expect(alert).toMatchObject({
      priority: 'high',
      properties: { token_id: member.tokenId, user_id: member.user.id, revoked_by: owner.user.id },
    });
    expect(alert.message).toContain(member.user.email);
    const rows = await eventually(async () => {
      const rows = await activityRowsOf(activity, owner.tenant.id, 'token_revoked_by_admin');
      expect(rows).toHaveLength(1);
      return rows;
    }, 'the activity row');
    expect(rows[0]).toMatchObject({
      subject_type: 'personal_access_token',
      subject_id: member.tokenId,
      causer_id: String(owner.user.id),
    });
    expect((await admin.request('DELETE', `${ORG}/${member.tokenId}`)).status).toBe(404);
    const elsewhere = await createTenantWithToken(system);
    expect((await admin.request('DELETE', `${ORG}/${elsewhere.tokenId}`)).status).toBe(404);
    expect((await elsewhere.request('GET', '/api/user')).status).toBe(200);
  });
});
