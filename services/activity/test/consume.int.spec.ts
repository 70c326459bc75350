import { activityEntry, activityRecorded, INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import { encodeEvent, type ServiceRuntime } from '@inventory/platform';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActivityHarness, type ActivityHarness } from './harness.js';

describe('activity.recorded consumption', () => {
  let harness: ActivityHarness;
  let producer: ServiceRuntime;

  beforeAll(async () => {
    harness = await startActivityHarness();
    producer = harness.producer;
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('stores an event published through the outbox, with every field', async () => {
    const at = new Date('2024-05-01T10:11:12.345Z');
    await producer.outbox.withEvents(
      [
        activityEntry({
          tenantId: 'tenant-outbox',
          event: 'updated',
          description: 'Settings updated',
          subject: { type: INTEGRATION_INSTANCE_SUBJECT, id: 3 },
          causerId: '41',
          properties: { changed_keys: ['name', 'quota_alert_threshold'] },
          occurredAt: at,
        }),
      ],
      async () => 'state change',
    );
    const [row] = await harness.waitForTotal('tenant-outbox', 1);
    expect(row).toEqual({
      id: expect.any(Number),
      event: 'updated',
      description: 'Settings updated',
      subject_type: 'integration_instance',
      subject_id: 3,
      causer_id: '41',
      properties_json: '{"changed_keys":["name","quota_alert_threshold"]}',
      created_at: at,
    });
    expect(row!.id).toBeGreaterThan(0);
  });

  it('stores a system event without causer, merging the instance id into properties', async () => {
    await producer.outbox.withEvents(
      [
        activityEntry({
          tenantId: 'tenant-system',
          event: 'webhook_processed',
          description: 'Webhook processed',
          integrationInstanceId: 8,
          properties: { tracking_number: 'RR1' },
        }),
      ],
      async () => undefined,
    );
    const [row] = await harness.waitForTotal('tenant-system', 1);
    expect(row!.causer_id).toBeUndefined();
    expect(row!.subject_type).toBe('');
    expect(row!.subject_id).toBe(0);
    expect(JSON.parse(row!.properties_json)).toEqual({
      tracking_number: 'RR1',
      integration_instance_id: 8,
    });
  });

  it('stores an event delivered twice only once', async () => {
    const entry = activityEntry({
      tenantId: 'tenant-twice',
      id: 'evt-twice-1',
      event: 'connected',
      description: 'Connected',
      causerId: '1',
    });
    const { id, bytes } = encodeEvent(activityRecorded, entry.event);
    // Different message ids defeat JetStream's duplicate window, as a relay republishing after it would.
    await producer.publisher.publishEncoded(activityRecorded.subject, `${id}-first`, bytes, '');
    await producer.publisher.publishEncoded(activityRecorded.subject, `${id}-again`, bytes, '');
    await producer.publisher.publish(
      activityRecorded,
      activityEntry({ tenantId: 'tenant-twice', event: 'updated', description: 'Later' }).event,
    );
    // Every copy handled (the consumer acks after storing), then count.
    await harness.drained();
    const after = await harness.list('tenant-twice');
    expect(after.page_info!.total).toBe(2);
    expect(after.activities.map((row) => row.event).sort()).toEqual(['connected', 'updated']);
  });

  it('drops a malformed event without blocking the ones behind it', async () => {
    await producer.publisher.publish(
      activityRecorded,
      activityEntry({ tenantId: 'tenant-bad', event: '', description: 'no name' }).event,
    );
    await producer.publisher.publish(activityRecorded, {
      tenantId: 'tenant-bad',
      payload: {
        ...activityEntry({
          tenantId: 'tenant-bad',
          event: 'backfill_started',
          description: 'Backfill started',
        }).event.payload,
        properties_json: '[not json',
      },
    });
    const rows = await harness.waitForTotal('tenant-bad', 1);
    expect(rows.map((row) => [row.event, row.properties_json])).toEqual([
      ['backfill_started', '{}'],
    ]);
  });

  it('RecordActivity writes directly, idempotent by key, and validates', async () => {
    const request = {
      event: 'quota_exceeded',
      description: 'Quota at 80%',
      subject_type: '',
      subject_id: 0,
      properties_json: '{"percent":80}',
      integration_instance_id: 2,
      idempotency_key: 'quota-80-2024-05',
      occurred_at: new Date('2024-05-02T00:00:00Z'),
    };
    const first = await harness.asTenant('tenant-rpc', (call) => call.recordActivity(request));
    const second = await harness.asTenant('tenant-rpc', (call) => call.recordActivity(request));
    expect(second.activity).toEqual(first.activity);
    expect(JSON.parse(first.activity!.properties_json)).toEqual({
      percent: 80,
      integration_instance_id: 2,
    });
    expect((await harness.list('tenant-rpc')).page_info!.total).toBe(1);

    await expect(
      harness.asTenant('tenant-rpc', (call) =>
        call.recordActivity({ ...request, idempotency_key: '', properties_json: '[1]' }),
      ),
    ).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    await expect(
      harness.asTenant('tenant-rpc', (call) =>
        call.recordActivity({ ...request, idempotency_key: '', event: ' ' }),
      ),
    ).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
    });
    await expect(
      harness.asTenant(undefined, (call) => call.recordActivity(request)),
    ).rejects.toMatchObject({ code: GrpcStatus.INVALID_ARGUMENT });
  });
});
