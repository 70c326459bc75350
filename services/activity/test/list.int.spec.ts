import { status as GrpcStatus } from '@grpc/grpc-js';
import type { Activity } from '@inventory/contracts/activity/v1/activity.js';
import { activityEntry, INTEGRATION_INSTANCE_SUBJECT, type ActivityInput } from '@inventory/events';
import { describeCallError } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActivityHarness, type ActivityHarness } from './harness.js';

const A = 'tenant-a';
const B = 'tenant-b';
const instance = (id: number) => ({ type: INTEGRATION_INSTANCE_SUBJECT, id });
const at = (iso: string) => new Date(iso);

// Tenant A's log; instance 5 is ours, instance 6 is noise. Rows 4 and 5 share created_at.
const seed: Array<Omit<ActivityInput, 'tenantId'>> = [
  {
    event: 'connected',
    description: 'Parcel tracking connected',
    subject: instance(5),
    causerId: '7',
    occurredAt: at('2024-03-01T09:00:00Z'),
  },
  {
    event: 'updated',
    description: 'Settings updated',
    subject: instance(5),
    causerId: '8',
    properties: { changed_keys: ['name'] },
    occurredAt: at('2024-03-02T00:00:00.000Z'),
  },
  {
    event: 'webhook_processed',
    description: 'Webhook a.b* processed',
    integrationInstanceId: 5,
    properties: { tracking_number: 'ab1234' },
    occurredAt: at('2024-03-02T23:59:59.999Z'),
  },
  {
    event: 'webhook_failed',
    description: 'Webhook aXbbb failed',
    integrationInstanceId: 5,
    properties: { tracking_number: 'AB12345' },
    occurredAt: at('2024-03-03T00:00:00.000Z'),
  },
  {
    event: 'quota_exceeded',
    description: 'Quota 80% reached',
    integrationInstanceId: 5,
    occurredAt: at('2024-03-03T00:00:00.000Z'),
  },
  {
    event: 'backfill_started',
    description: 'Backfill started',
    integrationInstanceId: 6,
    occurredAt: at('2024-03-04T00:00:00Z'),
  },
  {
    event: 'connected',
    description: 'Other instance connected',
    subject: instance(6),
    causerId: '7',
    occurredAt: at('2024-03-04T01:00:00Z'),
  },
  {
    event: 'disconnected',
    description: 'Parcel tracking disconnected',
    subject: instance(5),
    causerId: '7',
    occurredAt: at('2024-03-05T12:00:00Z'),
  },
];

const events = (rows: Activity[]) => rows.map((row) => row.event);

describe('ListActivities', () => {
  let harness: ActivityHarness;
  let all: Activity[];

  beforeAll(async () => {
    harness = await startActivityHarness();
    await harness.producer.outbox.withEvents(
      seed.map((input) => activityEntry({ ...input, tenantId: A })),
      async () => undefined,
    );
    await harness.producer.outbox.withEvents(
      [
        activityEntry({
          tenantId: B,
          event: 'connected',
          description: 'B connected',
          subject: instance(99),
          causerId: '7',
          occurredAt: at('2024-03-01T09:00:00Z'),
        }),
        activityEntry({
          tenantId: B,
          event: 'webhook_processed',
          description: 'B webhook',
          integrationInstanceId: 99,
          occurredAt: at('2024-03-02T09:00:00Z'),
        }),
      ],
      async () => undefined,
    );
    all = await harness.waitForTotal(A, seed.length);
    await harness.waitForTotal(B, 2);
  });
  afterAll(async () => {
    await harness?.stop();
  });

  const scoped = (request: Parameters<ActivityHarness['list']>[1] = {}) =>
    harness.list(A, { integration_instance_id: 5, ...request });
  const idOf = (event: string) =>
    all.find((row) => row.event === event && row.description !== 'Other instance connected')!.id;

  it('scopes to the instance: subject rows and properties rows, nothing of other instances', async () => {
    const response = await scoped();
    expect(response.page_info!.total).toBe(6);
    expect(new Set(events(response.activities))).toEqual(
      new Set([
        'connected',
        'updated',
        'webhook_processed',
        'webhook_failed',
        'quota_exceeded',
        'disconnected',
      ]),
    );
    expect(
      response.activities.some(
        (row) => row.description.includes('Other') || row.event === 'backfill_started',
      ),
    ).toBe(false);
  });

  it('adds the rows of history instances, subject and properties alike (ADR 0215)', async () => {
    const response = await harness.list(A, {
      integration_instance_id: 6,
      history_instance_ids: [5],
    });
    expect(response.page_info!.total).toBe(8);
    expect(response.activities.filter((row) => row.subject_id === 6)).toHaveLength(1);
    expect(events(response.activities)).toContain('disconnected');
    // Without the history, only the instance's own two rows.
    expect((await harness.list(A, { integration_instance_id: 6 })).page_info!.total).toBe(2);
    await expect(harness.list(A, { history_instance_ids: [5] })).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
  });

  it('sorts by -created_at then -id by default, breaking the created_at tie by id', async () => {
    const [tieLow, tieHigh] = [idOf('webhook_failed'), idOf('quota_exceeded')].sort(
      (x, y) => x - y,
    );
    const rows = (await scoped()).activities;
    expect(rows.map((row) => row.id)).toEqual([
      idOf('disconnected'),
      tieHigh,
      tieLow,
      idOf('webhook_processed'),
      idOf('updated'),
      idOf('connected'),
    ]);
    const ascending = (await scoped({ sort: [{ field: 'created_at', descending: false }] }))
      .activities;
    expect(ascending.map((row) => row.id)).toEqual([
      idOf('connected'),
      idOf('updated'),
      idOf('webhook_processed'),
      tieLow,
      tieHigh,
      idOf('disconnected'),
    ]);
  });

  it('sorts by event and by id in both directions', async () => {
    expect(
      events((await scoped({ sort: [{ field: 'event', descending: false }] })).activities),
    ).toEqual([
      'connected',
      'disconnected',
      'quota_exceeded',
      'updated',
      'webhook_failed',
      'webhook_processed',
    ]);
    expect(
      events((await scoped({ sort: [{ field: 'event', descending: true }] })).activities)[0],
    ).toBe('webhook_processed');
    const ids = (await scoped({ sort: [{ field: 'id', descending: false }] })).activities.map(
      (row) => row.id,
    );
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const idsDown = (await scoped({ sort: [{ field: 'id', descending: true }] })).activities.map(
      (row) => row.id,
    );
    expect(idsDown).toEqual([...ids].reverse());
  });

  it('ties on event are broken by id in the same direction', async () => {
    const rows = (
      await harness.list(A, {
        event_types: ['connected'],
        sort: [{ field: 'event', descending: false }],
      })
    ).activities;
    expect(rows.map((row) => row.id)).toEqual(rows.map((row) => row.id).sort((x, y) => x - y));
    expect(rows).toHaveLength(2);
  });

  it('filters by event types and causers', async () => {
    expect(
      new Set(
        events((await scoped({ event_types: ['webhook_processed', 'webhook_failed'] })).activities),
      ),
    ).toEqual(new Set(['webhook_processed', 'webhook_failed']));
    expect(events((await scoped({ causer_ids: ['7'] })).activities)).toEqual([
      'disconnected',
      'connected',
    ]);
    expect(
      events((await scoped({ causer_ids: ['7', '8'], event_types: ['updated'] })).activities),
    ).toEqual(['updated']);
    expect((await scoped({ causer_ids: ['nobody'] })).page_info!.total).toBe(0);
  });

  it('searches description as a literal, case-insensitive substring', async () => {
    expect(events((await scoped({ search: 'a.b*' })).activities)).toEqual(['webhook_processed']);
    expect(events((await scoped({ search: 'QUOTA 80%' })).activities)).toEqual(['quota_exceeded']);
    expect((await scoped({ search: '(' })).page_info!.total).toBe(0);
  });

  it("narrows to one shipment's rows: properties.tracking_number, whole and in any case", async () => {
    const rows = await harness.list(A, { integration_instance_id: 5, tracking_number: 'AB1234' });
    expect(events(rows.activities)).toEqual(['webhook_processed']);
    expect(
      (await harness.list(A, { integration_instance_id: 5, tracking_number: 'AB.*' })).activities,
    ).toEqual([]);
    expect((await harness.list(B, { tracking_number: 'ab1234' })).activities).toEqual([]);
  });

  it('includes both ends of whole-day date bounds', async () => {
    const oneDay = await scoped({ created: { from: '2024-03-02', to: '2024-03-02' } });
    expect(events(oneDay.activities)).toEqual(['webhook_processed', 'updated']);
    expect((await scoped({ created: { from: '2024-03-03' } })).page_info!.total).toBe(3);
    expect((await scoped({ created: { to: '2024-03-01' } })).page_info!.total).toBe(1);
    expect(
      (await scoped({ created: { from: '2024-03-03T00:00:00Z', to: '2024-03-03T00:00:00Z' } }))
        .page_info!.total,
    ).toBe(2);
  });

  it('paginates with totals and positions', async () => {
    const second = await scoped({ page: { page: 2, per_page: 4 } });
    expect(second.page_info).toEqual({
      current_page: 2,
      last_page: 2,
      per_page: 4,
      total: 6,
      from: 5,
      to: 6,
    });
    expect(second.activities.map((row) => row.id)).toEqual([idOf('updated'), idOf('connected')]);
    const beyond = await scoped({ page: { page: 3, per_page: 4 } });
    expect(beyond.activities).toEqual([]);
    expect(beyond.page_info).toEqual({
      current_page: 3,
      last_page: 2,
      per_page: 4,
      total: 6,
      from: 0,
      to: 0,
    });
    expect((await scoped({ page: { page: 1, per_page: 1 } })).page_info).toMatchObject({
      total: 6,
      last_page: 6,
      to: 1,
    });
    expect((await harness.list(A)).page_info).toMatchObject({ per_page: 10, total: seed.length });
  });

  it('returns the row fields the gateway presents', async () => {
    const [updated] = (await scoped({ event_types: ['updated'] })).activities;
    expect(updated).toEqual({
      id: idOf('updated'),
      event: 'updated',
      description: 'Settings updated',
      subject_type: 'integration_instance',
      subject_id: 5,
      causer_id: '8',
      properties_json: '{"changed_keys":["name"]}',
      created_at: at('2024-03-02T00:00:00.000Z'),
    });
  });

  it('never shows one tenant the rows of another, even with its instance id', async () => {
    expect((await harness.list(B, { integration_instance_id: 5 })).page_info!.total).toBe(0);
    const bRows = (await harness.list(B)).activities;
    expect(bRows.map((row) => row.description).sort()).toEqual(['B connected', 'B webhook']);
    expect((await harness.list(A, { integration_instance_id: 99 })).page_info!.total).toBe(0);
    expect((await harness.list(B, { integration_instance_id: 99 })).page_info!.total).toBe(2);
  });

  it('refuses bad input with field violations, and a call without tenant', async () => {
    const error = await harness
      .list(A, {
        sort: [{ field: 'description', descending: false }],
        created: { from: '03/01/2024' },
      })
      .catch((e: unknown) => e);
    const decoded = describeCallError(error);
    expect(decoded.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(decoded.fieldViolations.map((violation) => violation.field)).toEqual([
      'created.from',
      'sort',
    ]);
    await expect(harness.list(A, { page: { page: 1, per_page: 1001 } })).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    await expect(
      harness.asTenant(undefined, (call) =>
        call.listActivities({
          event_types: [],
          causer_ids: [],
          search: '',
          tracking_number: '',
          sort: [],
          history_instance_ids: [],
        }),
      ),
    ).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
  });
});
