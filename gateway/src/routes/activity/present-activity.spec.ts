import { describe, expect, it } from 'vitest';
import { presentActivity } from './present-activity.js';

describe('presentActivity', () => {
  it('maps a subject row with a causer', () => {
    expect(
      presentActivity({
        id: 12,
        event: 'updated',
        description: 'Settings updated',
        subject_type: 'integration_instance',
        subject_id: 5,
        causer_id: '7',
        properties_json: '{"changed_keys":["name"]}',
        created_at: new Date('2024-03-02T10:00:00.5Z'),
      }),
    ).toEqual({
      id: 12,
      event: 'updated',
      description: 'Settings updated',
      subject_type: 'integration_instance',
      subject_id: 5,
      causer_id: 7,
      properties: { changed_keys: ['name'] },
      created_at: '2024-03-02T10:00:00.500Z',
    });
  });

  it('renders absent subject and causer as null, and empty properties as {}', () => {
    expect(
      presentActivity({
        id: 1,
        event: 'quota_exceeded',
        description: 'Quota',
        subject_type: '',
        subject_id: 0,
        properties_json: '',
        created_at: new Date(0),
      }),
    ).toMatchObject({
      subject_type: null,
      subject_id: null,
      causer_id: null,
      properties: {},
      created_at: '1970-01-01T00:00:00.000Z',
    });
  });

  it('keeps a non-numeric causer id as text and survives unreadable properties', () => {
    const item = presentActivity({
      id: 1,
      event: 'e',
      description: '',
      subject_type: '',
      subject_id: 0,
      causer_id: 'svc-7',
      properties_json: '[1]',
      created_at: new Date(0),
    });
    expect(item.causer_id).toBe('svc-7');
    expect(item.properties).toEqual({});
  });
});
