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

const REPORT = '/api/credentials/revoke';
const ANSWER = {
  message:
    'Thank you. Every reported credential is checked; any that is valid is revoked and its owner told.',
};
const FOUND_AT = 'https://github.com/acme/shop/blob/main/.env';

describe('leaked tokens reported on the public endpoint (ADR 0115)', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let session: SessionFixture;
  let activity: GrpcClientHandle<ActivityServiceClient>;

  beforeAll(async () => {
    // Each test reports from its own address (X-Forwarded-For from a trusted loopback proxy), so
    // the per-address limit of one does not spend another's.
    system = await startSystem({ gatewayEnv: { TRUSTED_PROXIES: '127.0.0.1' } });
    owner = await createTenantWithToken(system);
    session = await loginSession(owner, system.gatewayUrl);
    activity = createGrpcClient(ActivityServiceClient, system.services.activity!.grpc!.address, {
      deadlineMs: 10_000,
    });
  });
  afterAll(async () => {
    activity?.close();
    await system?.stop();
  });

  it('revokes a reported token at once, alerts about its owner, logs the activity, and answers as for nothing', async () => {
    const victim = await createUserWithToken(system, owner.tenant, {
      token: { name: 'ci deploy' },
    });
    expect((await victim.request('GET', '/api/user')).status).toBe(200);

    const from = { 'x-forwarded-for': '203.0.113.1' };
    const report = await owner.anonymous(
      'POST',
      REPORT,
      { credentials: [victim.token], url: FOUND_AT },
      from,
    );
    expect(report.status).toBe(202);
    expect(report.body).toEqual(ANSWER);
    expect((await victim.request('GET', '/api/user')).status).toBe(401);

    // Nothing tells a valid report from an invalid one.
    const nonsense = await owner.anonymous(
      'POST',
      REPORT,
      { credentials: [`${victim.tokenId}|${'Z'.repeat(50)}`, 'not a token'] },
      from,
    );
    expect({ status: nonsense.status, body: nonsense.body }).toEqual({
      status: report.status,
      body: report.body,
    });

    // The owner's alert: they sign in with their password, the revoked token being useless.
    const victimSession = await loginSession(victim, system.gatewayUrl);
    const leakAlertOf = async (reader: SessionFixture) =>
      (await reader.request('GET', '/api/alerts?per_page=100')).body.data.find(
        (row: { kind: string }) => row.kind === 'token_leak_reported',
      );
    const alert = await eventually(async () => {
      const found = await leakAlertOf(victimSession);
      expect(found).toBeDefined();
      return found;
    }, 'the leak alert');
    expect(alert.recipient_user_id).toBe(victim.user.id);
    expect(await leakAlertOf(session)).toBeUndefined();
    expect(alert).toMatchObject({
      priority: 'high',
      link: '/settings/developer/tokens',
      properties: {
        token_id: victim.tokenId,
        token_name: 'ci deploy',
        user_id: victim.user.id,
        user_email: victim.user.email,
        url: FOUND_AT,
      },
    });
    expect(alert.message).toContain(victim.user.email);
    expect(alert.message).toContain(FOUND_AT);

    const rows = await eventually(async () => {
      const rows = await activityRowsOf(activity, owner.tenant.id, 'token_revoked_as_leaked');
      expect(rows).toHaveLength(1);
      return rows;
    }, 'the activity row');
    expect(rows[0]).toMatchObject({
      subject_type: 'personal_access_token',
      subject_id: victim.tokenId,
    });
    expect(JSON.parse(rows[0]!.properties_json)).toMatchObject({ url: FOUND_AT });
  });

  it('never revokes without the whole secret, nor on another tenant’s host', async () => {
    const target = await createUserWithToken(system, owner.tenant);
    const elsewhere = await createTenantWithToken(system);
    const [id, secret] = target.token.split('|') as [string, string];
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('a') ? 'b' : 'a'}`;
    const from = { 'x-forwarded-for': '203.0.113.2' };
    const report = await owner.anonymous(
      'POST',
      REPORT,
      {
        credentials: [
          `${id}|${secret.slice(0, -1)}`,
          `${id}|${flipped}`,
          `${id}|${secret}x`,
          secret,
          id,
          `${id}|`,
        ],
      },
      from,
    );
    expect(report.status).toBe(202);
    const onOtherHost = await elsewhere.anonymous(
      'POST',
      REPORT,
      { credentials: [target.token] },
      from,
    );
    expect(onOtherHost.status).toBe(202);
    expect((await target.request('GET', '/api/user')).status).toBe(200);
  });

  it('refuses malformed reports with the 422 envelope', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'credentials'],
      [{ credentials: [] }, 'credentials'],
      [{ credentials: 'x' }, 'credentials'],
      [{ credentials: [1] }, 'credentials.0'],
      [{ credentials: Array.from({ length: 101 }, () => 'x') }, 'credentials'],
      [{ credentials: ['1|x'], url: 'a\u0000b' }, 'url'],
      [{ credentials: ['1|x'], url: 'x'.repeat(1001) }, 'url'],
    ];
    for (const [body, field] of cases) {
      const answer = await owner.anonymous('POST', REPORT, body, {
        'x-forwarded-for': '203.0.113.3',
      });
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(answer.body.errors)).toContain(field);
    }
  });

  it('is rate limited per address, and a refused report revokes nothing', async () => {
    const spared = await createUserWithToken(system, owner.tenant);
    const from = { 'x-forwarded-for': '203.0.113.4' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++)
      statuses.push((await owner.anonymous('POST', REPORT, { credentials: ['1|x'] }, from)).status);
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 202));
    const refused = await owner.anonymous('POST', REPORT, { credentials: [spared.token] }, from);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['x-ratelimit-limit']).toBe('10');
    expect((await spared.request('GET', '/api/user')).status).toBe(200);
    // Another address still has its budget.
    const other = await owner.anonymous(
      'POST',
      REPORT,
      { credentials: ['1|x'] },
      {
        'x-forwarded-for': '203.0.113.5',
      },
    );
    expect(other.status).toBe(202);
  });
});
