import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_STREAM,
  activityEntry,
  activityRecorded,
  INTEGRATION_INSTANCE_SUBJECT,
} from './activity.js';

describe('activity events', () => {
  it('binds activity.recorded to a subject the ACTIVITY stream captures', () => {
    expect(activityRecorded.subject).toBe('activity.recorded');
    expect(ACTIVITY_STREAM).toEqual({ name: 'ACTIVITY', subjects: ['activity.>'] });
  });

  it('builds an outbox entry for a user action on the instance', () => {
    const entry = activityEntry({
      tenantId: 't1',
      event: 'updated',
      description: 'Settings updated',
      subject: { type: INTEGRATION_INSTANCE_SUBJECT, id: 7 },
      causerId: '12',
      properties: { changed_keys: ['name'] },
    });
    expect(entry.type).toBe(activityRecorded);
    expect(entry.event.tenantId).toBe('t1');
    expect(entry.event).not.toHaveProperty('id');
    const decoded = ActivityRecorded.decode(
      activityRecorded.codec.encode(entry.event.payload).finish(),
    );
    expect(decoded).toEqual({
      event: 'updated',
      description: 'Settings updated',
      subject_type: 'integration_instance',
      subject_id: 7,
      causer_id: '12',
      properties_json: '{"changed_keys":["name"]}',
    });
  });

  it('builds a system event with no subject and no causer', () => {
    const at = new Date('2024-01-02T03:04:05Z');
    const entry = activityEntry({
      tenantId: 't1',
      event: 'quota_exceeded',
      description: 'Quota at 80%',
      integrationInstanceId: 7,
      id: 'q-80',
      occurredAt: at,
    });
    expect(entry.event.id).toBe('q-80');
    expect(entry.event.occurredAt).toBe(at);
    const decoded = ActivityRecorded.decode(
      activityRecorded.codec.encode(entry.event.payload).finish(),
    );
    expect(decoded).toEqual({
      event: 'quota_exceeded',
      description: 'Quota at 80%',
      subject_type: '',
      subject_id: 0,
      properties_json: '{}',
      integration_instance_id: 7,
    });
  });
});
