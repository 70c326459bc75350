import { alertEntry, alertRaised, type AlertInput } from '@inventory/events';
import { eventually } from '@inventory/local-infra';
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

const NOT_FOR_TOKENS = { message: 'This endpoint is not available to API tokens.' };

describe('GET /api/alerts and marking alerts read, through the gateway', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let session: SessionFixture;
  let other: TenantFixture;
  let otherSession: SessionFixture;

  // Published as a producer's outbox relay would (the activity runtime itself runs no relay).
  const raise = (input: AlertInput) =>
    system.services.activity!.publisher.publish(alertRaised, alertEntry(input).event);
  const waitForTotal = (request: SessionFixture['request'], total: number) =>
    eventually(async () => {
      const response = await request('GET', '/api/alerts?per_page=100');
      expect({ status: response.status, total: response.body.total }).toEqual({
        status: 200,
        total,
      });
      return response;
    }, `${total} alerts`);

  /** A tenant with three unread alerts (days 1 to 3, the last one high), and its session. */
  const tenantWithAlerts = async (slug: string) => {
    const tenant = await createTenantWithToken(system, { slug });
    const tenantSession = await loginSession(tenant, system.gatewayUrl);
    for (const day of [1, 2, 3])
      await raise({
        tenantId: tenant.tenant.id,
        key: `quota_warning:1:${day}`,
        kind: day === 3 ? 'quota_exhausted' : 'quota_warning',
        priority: day === 3 ? 'high' : 'normal',
        title: `Alert ${day}`,
        message: `Message ${day}`,
        link: day === 1 ? undefined : '/integrations/parcel-tracking',
        properties: { integration_instance_id: 1, day },
        occurredAt: new Date(Date.UTC(2024, 4, day)),
      });
    await waitForTotal(tenantSession.request, 3);
    return { tenant, session: tenantSession };
  };

  beforeAll(async () => {
    system = await startSystem();
    ({ tenant: owner, session } = await tenantWithAlerts('alerts-owner'));
    other = await createTenantWithToken(system, { slug: 'alerts-other' });
    otherSession = await loginSession(other, system.gatewayUrl);
    await raise({
      tenantId: other.tenant.id,
      key: 'other-1',
      kind: 'rma_delivered',
      title: 'Other tenant',
      message: 'Not yours',
    });
    await waitForTotal(otherSession.request, 1);
  });
  afterAll(() => system?.stop());

  it('lists the tenant’s alerts newest first in the flat envelope with the unread count', async () => {
    const response = await session.request('GET', '/api/alerts');
    expect(response.status).toBe(200);
    const path = `${owner.baseUrl}/api/alerts`;
    expect(response.body).toMatchObject({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 3,
      from: 1,
      to: 3,
      path,
      first_page_url: `${path}?page=1`,
      prev_page_url: null,
      next_page_url: null,
      unread_count: 3,
    });
    expect(response.body.data.map((item: { title: string }) => item.title)).toEqual([
      'Alert 3',
      'Alert 2',
      'Alert 1',
    ]);
    expect(response.body.data[0]).toEqual({
      id: expect.any(Number),
      kind: 'quota_exhausted',
      priority: 'high',
      title: 'Alert 3',
      message: 'Message 3',
      link: '/integrations/parcel-tracking',
      properties: { integration_instance_id: 1, day: 3 },
      read_at: null,
      created_at: '2024-05-03T00:00:00.000Z',
      recipient_user_id: null,
    });
    expect(response.body.data[2].link).toBeNull();
  });

  it('paginates with URLs that keep the filter', async () => {
    const response = await session.request(
      'GET',
      '/api/alerts?filter[unread]=true&per_page=2&page=2',
    );
    expect(response.status).toBe(200);
    const path = `${owner.baseUrl}/api/alerts`;
    expect(response.body).toMatchObject({
      current_page: 2,
      last_page: 2,
      from: 3,
      to: 3,
      total: 3,
    });
    expect(response.body.data.map((item: { title: string }) => item.title)).toEqual(['Alert 1']);
    expect(response.body.prev_page_url).toBe(`${path}?filter%5Bunread%5D=true&per_page=2&page=1`);
    expect(response.body.links.map((link: { label: string }) => link.label)).toEqual([
      '« Previous',
      '1',
      '2',
      'Next »',
    ]);
  });

  it('refuses bad paging and filter values with 422', async () => {
    for (const query of [
      'page=1e9',
      'page=0',
      'page=-1',
      'per_page=101',
      'per_page=abc',
      'filter[unread]=maybe',
    ]) {
      const response = await session.request('GET', `/api/alerts?${query}`);
      expect(response.status, query).toBe(422);
      expect(response.body.errors, query).toBeTypeOf('object');
    }
  });

  it('is for web sessions only: tokens get 403, no credential 401', async () => {
    expect(await owner.request('GET', '/api/alerts')).toMatchObject({
      status: 403,
      body: NOT_FOR_TOKENS,
    });
    const list = await session.request('GET', '/api/alerts');
    const id = list.body.data[0].id as number;
    expect(await owner.request('POST', `/api/alerts/${id}/read`)).toMatchObject({
      status: 403,
      body: NOT_FOR_TOKENS,
    });
    expect(await owner.request('POST', '/api/alerts/read-all')).toMatchObject({ status: 403 });
    expect((await owner.anonymous('GET', '/api/alerts')).status).toBe(401);
  });

  it("keeps the tenant's inbox to holders of alerts:view: another user reads only their own alerts", async () => {
    const clerk = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['orders:read'],
    });
    const clerkSession = await loginSession(clerk, system.gatewayUrl);
    const response = await clerkSession.request('GET', '/api/alerts');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ data: [], total: 0, unread_count: 0 });
    const inboxAlert = (await session.request('GET', '/api/alerts')).body.data[0];
    expect(inboxAlert.recipient_user_id).toBeNull();
    expect((await clerkSession.request('POST', `/api/alerts/${inboxAlert.id}/read`)).status).toBe(
      404,
    );
    expect((await clerkSession.request('POST', '/api/alerts/read-all')).body).toEqual({
      data: { marked: 0 },
    });
    const after = (await session.request('GET', '/api/alerts')).body.data[0];
    expect(after.read_at).toBeNull();
  });

  // The two tests that mark alerts read do it on tenants of their own.
  it('marks one alert read (idempotent), 404 for unknown, malformed and other tenants’ ids', async () => {
    const { session } = await tenantWithAlerts('alerts-mark-one');
    const list = await session.request('GET', '/api/alerts');
    const target = list.body.data[1];
    const read = await session.request('POST', `/api/alerts/${target.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ ...target, read_at: expect.any(String) });
    const again = await session.request('POST', `/api/alerts/${target.id}/read`);
    expect(again.body.data.read_at).toBe(read.body.data.read_at);

    const unread = await session.request('GET', '/api/alerts?filter[unread]=1');
    expect(unread.body.total).toBe(2);
    expect(unread.body.unread_count).toBe(2);

    const theirs = (await otherSession.request('GET', '/api/alerts')).body.data[0].id as number;
    for (const id of [String(theirs), '999999999', 'abc', '0', '-1', '1e3']) {
      const response = await session.request('POST', `/api/alerts/${id}/read`);
      expect(response.status, id).toBe(404);
      expect(response.body.status, id).toBe('failure');
      expect(response.body.errors.url[0].code, id).toBe('NotFound');
    }
    // The other tenant's alert is untouched.
    expect((await otherSession.request('GET', '/api/alerts')).body.unread_count).toBe(1);
  });

  it('marks all read for the tenant only', async () => {
    const { session } = await tenantWithAlerts('alerts-mark-all');
    const response = await session.request('POST', '/api/alerts/read-all');
    expect(response.status).toBe(200);
    expect(response.body.data.marked).toBe(3);
    expect((await session.request('GET', '/api/alerts')).body.unread_count).toBe(0);
    const again = await session.request('POST', '/api/alerts/read-all');
    expect(again.body.data.marked).toBe(0);
    expect((await otherSession.request('GET', '/api/alerts')).body.unread_count).toBe(1);
  });
});
