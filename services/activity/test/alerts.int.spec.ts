import { status as GrpcStatus } from '@grpc/grpc-js';
import { alertEntry, alertRaised, type AlertInput } from '@inventory/events';
import { encodeEvent, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@inventory/local-infra';
import { INBOX_READER, startActivityHarness, type ActivityHarness } from './harness.js';

const quotaWarning = (tenantId: string, overrides: Partial<AlertInput> = {}): AlertInput => ({
  tenantId,
  key: 'quota_warning:1:1',
  kind: 'quota_warning',
  title: 'Tracking quota at 80%',
  message: 'You have used 80% of your parcel-tracking quota.',
  link: '/integrations/parcel-tracking',
  properties: { integration_instance_id: 1, percent: 80 },
  ...overrides,
});

describe('in-app alerts (activity.alert.raised → ListAlerts / MarkAlertRead)', () => {
  let harness: ActivityHarness;
  let producer: ServiceRuntime;

  const publish = (input: AlertInput) =>
    producer.outbox.withEvents([alertEntry(input)], async () => undefined);
  /** The consumer handles events one at a time: once this sentinel is stored, everything before it was handled. */
  const sentinel = async (tenantId: string, key: string) => {
    await publish(quotaWarning(tenantId, { key, title: `sentinel ${key}` }));
    return harness.waitForAlerts(tenantId, (r) =>
      r.alerts.some((a) => a.title === `sentinel ${key}`),
    );
  };

  beforeAll(async () => {
    harness = await startActivityHarness();
    producer = harness.producer;
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('stores an alert published through the outbox with every field, unread', async () => {
    const at = new Date('2024-06-01T08:00:00.000Z');
    await publish(
      quotaWarning('t-fields', { priority: 'high', kind: 'quota_exhausted', occurredAt: at }),
    );
    // The page and the unread count are two reads: wait until both see the alert.
    const response = await harness.waitForAlerts(
      't-fields',
      (r) => r.alerts.length === 1 && r.unread_count === 1,
    );
    expect(response.alerts[0]).toEqual({
      id: expect.any(Number),
      kind: 'quota_exhausted',
      priority: 'high',
      title: 'Tracking quota at 80%',
      message: 'You have used 80% of your parcel-tracking quota.',
      link: '/integrations/parcel-tracking',
      properties_json: '{"integration_instance_id":1,"percent":80}',
      read_at: undefined,
      created_at: at,
      recipient_user_id: 0,
    });
    expect(response.unread_count).toBe(1);
    expect(response.page_info).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 100,
      total: 1,
      from: 1,
      to: 1,
    });
  });

  it('stores a redelivered event once (same event id, new message ids)', async () => {
    const { id, bytes } = encodeEvent(alertRaised, alertEntry(quotaWarning('t-redeliver')).event);
    // Different message ids defeat JetStream's duplicate window, as a relay republishing after it would.
    await producer.publisher.publishEncoded(alertRaised.subject, `${id}-1`, bytes, '');
    await producer.publisher.publishEncoded(alertRaised.subject, `${id}-2`, bytes, '');
    await producer.publisher.publishEncoded(alertRaised.subject, `${id}-3`, bytes, '');
    const after = await sentinel('t-redeliver', 'done');
    expect(after.alerts.map((a) => a.title).sort()).toEqual([
      'Tracking quota at 80%',
      'sentinel done',
    ]);
  });

  it('keeps one alert per key: a second event with the same key (another event id) changes nothing', async () => {
    await publish(quotaWarning('t-key'));
    const [first] = (await harness.waitForAlerts('t-key', (r) => r.alerts.length === 1)).alerts;
    await harness.asTenant('t-key', (call) =>
      call.markAlertRead({ id: first!.id, reader: INBOX_READER }),
    );
    // Same key, different event id (not deduplicated by the runtime or JetStream), different text.
    const again = alertEntry(quotaWarning('t-key', { title: 'changed' }));
    await producer.publisher.publish(alertRaised, { ...again.event, id: 'another-event-id' });
    const after = await sentinel('t-key', 'key-done');
    const stored = after.alerts.filter((a) => !a.title.startsWith('sentinel'));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.title).toBe('Tracking quota at 80%');
    // The read state survives the re-raise: it is the same alert, not a new unread one.
    expect(stored[0]!.read_at).toBeInstanceOf(Date);
    // A new key (the re-armed state machine's next generation) is a new alert.
    await publish(quotaWarning('t-key', { key: 'quota_warning:1:2' }));
    await harness.waitForAlerts('t-key', (r) => r.page_info!.total === 3);
  });

  it('lists newest first by when the alert was raised, even when events arrive out of order', async () => {
    const day = (n: number) => new Date(Date.UTC(2024, 0, n));
    for (const n of [3, 1, 5, 2, 4])
      await publish(
        quotaWarning('t-order', { key: `k${n}`, title: `day ${n}`, occurredAt: day(n) }),
      );
    const response = await harness.waitForAlerts('t-order', (r) => r.alerts.length === 5);
    expect(response.alerts.map((a) => a.title)).toEqual([
      'day 5',
      'day 4',
      'day 3',
      'day 2',
      'day 1',
    ]);

    const page2 = await harness.listAlerts('t-order', { page: { page: 2, per_page: 2 } });
    expect(page2.alerts.map((a) => a.title)).toEqual(['day 3', 'day 2']);
    expect(page2.page_info).toEqual({
      current_page: 2,
      last_page: 3,
      per_page: 2,
      total: 5,
      from: 3,
      to: 4,
    });
  });

  it('isolates tenants: lists, reads and mark-all never cross', async () => {
    await publish(quotaWarning('t-iso-a', { key: 'same-key' }));
    await publish(quotaWarning('t-iso-b', { key: 'same-key' }));
    const a = await harness.waitForAlerts('t-iso-a', (r) => r.alerts.length === 1);
    const b = await harness.waitForAlerts('t-iso-b', (r) => r.alerts.length === 1);
    expect(a.alerts[0]!.id).not.toBe(b.alerts[0]!.id);

    await expect(
      harness.asTenant('t-iso-b', (call) =>
        call.markAlertRead({ id: a.alerts[0]!.id, reader: INBOX_READER }),
      ),
    ).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
    expect(
      (
        await harness.asTenant('t-iso-b', (call) =>
          call.markAllAlertsRead({ reader: INBOX_READER }),
        )
      ).marked,
    ).toBe(1);
    expect((await harness.listAlerts('t-iso-a')).unread_count).toBe(1);
    await expect(harness.listAlerts(undefined as unknown as string)).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
  });

  it('marks read once, filters unread, counts unread, and 404s unknown ids', async () => {
    for (const n of [1, 2, 3]) await publish(quotaWarning('t-read', { key: `r${n}` }));
    const all = await harness.waitForAlerts(
      't-read',
      (r) => r.alerts.length === 3 && r.unread_count === 3,
    );
    expect(all.unread_count).toBe(3);
    const target = all.alerts[1]!;

    const marked = await harness.asTenant('t-read', (call) =>
      call.markAlertRead({ id: target.id, reader: INBOX_READER }),
    );
    expect(marked.alert!.read_at).toBeInstanceOf(Date);
    const again = await harness.asTenant('t-read', (call) =>
      call.markAlertRead({ id: target.id, reader: INBOX_READER }),
    );
    expect(again.alert!.read_at).toEqual(marked.alert!.read_at);

    const unread = await harness.listAlerts('t-read', { unread_only: true });
    expect(unread.alerts.map((a) => a.id)).toEqual(
      all.alerts.filter((a) => a.id !== target.id).map((a) => a.id),
    );
    expect(unread.unread_count).toBe(2);
    expect(unread.page_info!.total).toBe(2);
    expect((await harness.listAlerts('t-read')).page_info!.total).toBe(3);

    for (const id of [0, -1, 99_999_999])
      await expect(
        harness.asTenant('t-read', (call) => call.markAlertRead({ id, reader: INBOX_READER })),
      ).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });

    const all2 = await harness.asTenant('t-read', (call) =>
      call.markAllAlertsRead({ reader: INBOX_READER }),
    );
    expect(all2.marked).toBe(2);
    expect((await harness.listAlerts('t-read')).unread_count).toBe(0);
    expect(
      (await harness.asTenant('t-read', (call) => call.markAllAlertsRead({ reader: INBOX_READER })))
        .marked,
    ).toBe(0);
  });

  it('shows an alert for one user to that user alone, and the inbox to holders of alerts:view', async () => {
    const owner = { user_id: 7, tenant_inbox: false };
    const admin = { user_id: 8, tenant_inbox: true };
    const nobody = { user_id: 0, tenant_inbox: false };
    await publish(quotaWarning('t-to', { key: 'inbox', title: 'for the inbox' }));
    await publish(quotaWarning('t-to', { key: 'mine', title: 'for 7', recipientUserId: 7 }));
    await publish(quotaWarning('t-to', { key: 'theirs', title: 'for 9', recipientUserId: 9 }));
    const titles = (reader: typeof owner, unread = false) =>
      harness
        .listAlerts('t-to', { reader, unread_only: unread })
        .then((r) => ({ titles: r.alerts.map((a) => a.title).sort(), unread: r.unread_count }));
    await harness.waitForAlerts('t-to', (r) => r.alerts.length === 1);
    await eventually(async () => expect((await titles(owner)).titles).toEqual(['for 7']));
    await eventually(async () => expect((await titles({ ...owner, user_id: 9 })).unread).toBe(1));
    expect(await titles(admin)).toEqual({ titles: ['for the inbox'], unread: 1 });
    expect(await titles({ ...owner, tenant_inbox: true })).toEqual({
      titles: ['for 7', 'for the inbox'],
      unread: 2,
    });
    expect(await titles(nobody)).toEqual({ titles: [], unread: 0 });
    expect(await titles({ ...owner, user_id: 9 })).toEqual({ titles: ['for 9'], unread: 1 });
    const mine = (await harness.listAlerts('t-to', { reader: owner })).alerts[0]!;
    expect(mine.recipient_user_id).toBe(7);

    // Another user cannot read, nor mark read, what is addressed to someone else.
    await expect(
      harness.asTenant('t-to', (call) => call.markAlertRead({ id: mine.id, reader: admin })),
    ).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
    expect(
      (await harness.asTenant('t-to', (call) => call.markAllAlertsRead({ reader: admin }))).marked,
    ).toBe(1);
    expect(await titles(owner, true)).toEqual({ titles: ['for 7'], unread: 1 });
    expect(
      (await harness.asTenant('t-to', (call) => call.markAlertRead({ id: mine.id, reader: owner })))
        .alert!.read_at,
    ).toBeInstanceOf(Date);
    expect(await titles({ ...owner, user_id: 9 }, true)).toEqual({ titles: ['for 9'], unread: 1 });
  });

  it('refuses out-of-range paging', async () => {
    for (const page of [
      { page: -1, per_page: 10 },
      { page: 1, per_page: 101 },
    ])
      await expect(harness.listAlerts('t-read', { page })).rejects.toMatchObject({
        code: GrpcStatus.INVALID_ARGUMENT,
      });
  });

  it('drops a malformed alert without blocking the ones behind it', async () => {
    const bad = alertEntry(quotaWarning('t-bad', { key: 'bad' }));
    await producer.publisher.publish(alertRaised, {
      ...bad.event,
      payload: { ...bad.event.payload, kind: 'not_a_kind', link: 'https://evil.example' },
    });
    const after = await sentinel('t-bad', 'after-bad');
    expect(after.alerts.map((a) => a.title)).toEqual(['sentinel after-bad']);
  });
});
