import { domainEventEntry } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { createUserWithToken, createTenantWithToken } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

describe('pausing and resuming a webhook subscription through the gateway', () => {
  const h = subscriptionHarness();

  const emit = async (n: number) => {
    const { type, event } = domainEventEntry({
      tenantId: h.owner.tenant.id,
      name: 'customer.created',
      data: { id: n },
      occurredAt: new Date(Date.UTC(2026, 4, 1, 10, 0, n)),
    });
    await h.publisher.publish(type, event);
  };
  const received = (path: string) =>
    h.received
      .filter((r) => r.path === path)
      .map((r) => (JSON.parse(r.body) as { data: { id: number } }).data.id);

  it('holds events while paused (listed as held), sends them in order on resume, then new ones', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/pausable`,
      events: ['customer.created'],
    });
    const id = created.body.data.id as number;
    expect(created.body.data).toMatchObject({
      paused_at: null,
      pause_expires_at: null,
      resuming: false,
      held_count: 0,
    });

    const paused = await h.owner.request('POST', `${PATH}/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id, is_active: true, held_count: 0 });
    const pausedAt = Date.parse(paused.body.data.paused_at as string);
    expect(Date.parse(paused.body.data.pause_expires_at as string) - pausedAt).toBe(
      7 * 24 * 3600 * 1000,
    );

    for (const n of [1, 2, 3, 4]) await emit(n);
    const held = await poll(async () => {
      const log = await h.owner.request('GET', `${PATH}/${id}/deliveries?status=held`);
      return log.body.total === 4 ? log : undefined;
    });
    expect(held.body.data.map((d: { status: string }) => d.status)).toEqual(Array(4).fill('held'));
    expect(received('/pausable')).toEqual([]);
    expect((await h.owner.request('GET', `${PATH}/${id}`)).body.data).toMatchObject({
      held_count: 4,
    });

    const resumed = await h.owner.request('POST', `${PATH}/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.paused_at).toBeNull();
    await poll(() => received('/pausable').length === 4 || undefined);
    expect(received('/pausable')).toEqual([1, 2, 3, 4]);
    await poll(async () => {
      const shown = await h.owner.request('GET', `${PATH}/${id}`);
      return shown.body.data.resuming === false && shown.body.data.held_count === 0
        ? shown
        : undefined;
    });
    await emit(5);
    await poll(() => received('/pausable').length === 5 || undefined);
    expect(received('/pausable')).toEqual([1, 2, 3, 4, 5]);
  });

  it('needs webhooks:manage and the events’ scope; another tenant’s id is 404 and unchanged', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/guarded`,
      events: ['customer.created'],
    });
    const id = created.body.data.id as number;
    const manageOnly = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage'],
    });
    const readOnly = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['customers:read'],
    });
    for (const action of ['pause', 'resume']) {
      const byManageOnly = await manageOnly.request('POST', `${PATH}/${id}/${action}`);
      expect(byManageOnly.status).toBe(403);
      expect(byManageOnly.body).toMatchObject({ required_scope: 'customers:read' });
      const byReadOnly = await readOnly.request('POST', `${PATH}/${id}/${action}`);
      expect(byReadOnly.status).toBe(403);
      expect(byReadOnly.body).toMatchObject({ required_scope: 'webhooks:manage' });
    }
    const other = await createTenantWithToken(h.system);
    expect((await other.request('POST', `${PATH}/${id}/pause`)).status).toBe(404);
    expect((await h.owner.request('GET', `${PATH}/${id}`)).body.data.paused_at).toBeNull();
    for (const bad of ['abc', '0', '-1', '1.5', '%00'])
      expect((await h.owner.request('POST', `${PATH}/${bad}/pause`)).status).toBe(404);
  });
});
