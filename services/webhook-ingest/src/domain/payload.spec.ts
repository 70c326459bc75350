import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_BODY_BYTES, MAX_JSON_DEPTH, readWebhookBody } from './payload.js';
import { hashToken } from './token-hash.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

/** A provider push as DESIGN §8 and the simulator write it. */
const push = (overrides: { event?: string; time?: string; status?: string; sub?: string } = {}) =>
  JSON.stringify({
    event: overrides.event ?? 'TRACKING_UPDATED',
    data: {
      number: '1Z999AA10123456784',
      carrier: 100002,
      param: null,
      tag: null,
      track_info: {
        latest_status: {
          status: overrides.status ?? 'InTransit',
          sub_status: overrides.sub ?? 'InTransit_PickedUp',
          sub_status_descr: null,
        },
        latest_event: {
          time_iso: '2025-03-02T09:47:05-05:00',
          time_utc: overrides.time ?? '2025-03-02T14:47:05Z',
          description: 'Picked up by the carrier',
          location: 'Los Angeles, CA, US',
        },
        time_metrics: {
          estimated_delivery_date: {
            source: '17TRACK',
            from: '2025-03-04T00:00:00Z',
            to: '2025-03-06T00:00:00Z',
          },
        },
        milestone: [
          { key_stage: 'InfoReceived', time_utc: '2025-03-01T10:00:00Z' },
          { key_stage: 'PickedUp', time_utc: '2025-03-02T14:47:05Z' },
          { key_stage: 'Delivered', time_utc: null },
        ],
        tracking: {
          providers: [
            {
              provider: { key: 100002, name: 'UPS' },
              events: [
                {
                  time_utc: '2025-03-02T14:47:05Z',
                  description: 'Picked up by the carrier',
                  location: 'Los Angeles, CA, US',
                  stage: 'PickedUp',
                  sub_status: 'InTransit_PickedUp',
                },
                { time_utc: 'not a time', description: 'dropped' },
                {
                  time_utc: '2025-03-01T10:00:00Z',
                  description: 'Shipment information received',
                  location: null,
                  stage: 'InfoReceived',
                  sub_status: 'InfoReceived',
                },
              ],
            },
          ],
        },
      },
    },
  });

describe('reading a provider push', () => {
  it('keeps the specification payload and the update to apply', () => {
    const read = readWebhookBody(bytes(push()));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.payload).toEqual({
      event: 'TRACKING_UPDATED',
      data: {
        number: '1Z999AA10123456784',
        carrier: 100002,
        track_info: { latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' } },
      },
    });
    expect(read.update).toEqual({
      event_type: 'TRACKING_UPDATED',
      tracking_number: '1Z999AA10123456784',
      carrier_code: 100002,
      provider_status: 'InTransit',
      provider_sub_status: 'InTransit_PickedUp',
      latest_event_at: '2025-03-02T14:47:05.000Z',
      latest_event_description: 'Picked up by the carrier',
      latest_event_location: 'Los Angeles, CA, US',
      estimated_delivery_at: '2025-03-06T00:00:00.000Z',
      picked_up_at: '2025-03-02T14:47:05.000Z',
      checkpoints: [
        {
          occurred_at: '2025-03-02T14:47:05.000Z',
          description: 'Picked up by the carrier',
          location: 'Los Angeles, CA, US',
          sub_status: 'InTransit_PickedUp',
          stage: 'PickedUp',
        },
        {
          occurred_at: '2025-03-01T10:00:00.000Z',
          description: 'Shipment information received',
          location: '',
          sub_status: 'InfoReceived',
          stage: 'InfoReceived',
        },
      ],
    });
  });

  it('hands on at most TRACKING_CHECKPOINTS_MAX events of a push, the newest', () => {
    const body = JSON.parse(push()) as {
      data: { track_info: { tracking: { providers: Array<{ events: unknown[] }> } } };
    };
    body.data.track_info.tracking.providers[0]!.events = Array.from({ length: 150 }, (_, i) => ({
      time_utc: new Date(Date.UTC(2025, 2, 2, 0, 150 - i)).toISOString(),
      description: `Scan ${150 - i}`,
    }));
    const read = readWebhookBody(bytes(JSON.stringify(body)));
    if (!read.ok) throw new Error('refused');
    expect(read.update.checkpoints).toHaveLength(TRACKING_CHECKPOINTS_MAX);
    expect(read.update.checkpoints![0]!.description).toBe('Scan 150');
  });

  it('gives a provider retry the same identity, and a new event or status a new one', () => {
    const identity = (body: string) => {
      const read = readWebhookBody(bytes(body));
      return read.ok ? read.identity : undefined;
    };
    const first = identity(push());
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    // Key order and number case do not make a retry look new.
    const reordered = JSON.parse(push()) as { data: { number: string } };
    reordered.data.number = reordered.data.number.toLowerCase();
    expect(identity(JSON.stringify({ data: reordered.data, event: 'TRACKING_UPDATED' }))).toBe(
      first,
    );
    expect(identity(push({ event: 'TRACKING_STOPPED' }))).not.toBe(first);
    expect(identity(push({ time: '2025-03-03T10:00:00Z' }))).not.toBe(first);
    expect(identity(push({ status: 'Delivered', sub: 'Delivered_Other' }))).not.toBe(first);
  });

  it.each([
    ['', 'body', 'The body is empty.'],
    ['not json', 'body', 'The body is not valid JSON.'],
    ['[1,2]', 'body', 'The body must be a JSON object.'],
    ['null', 'body', 'The body must be a JSON object.'],
    ['{"data":{"number":"1Z1"}}', 'event', 'The event field is required.'],
    ['{"event":5,"data":{"number":"1Z1"}}', 'event', 'The event field is required.'],
    [
      '{"event":"TRACKING_UPDATED","data":{"number":12}}',
      'data.number',
      'The data.number field is required.',
    ],
    ['{"event":"TRACKING_UPDATED"}', 'data.number', 'The data.number field is required.'],
  ])('refuses %j naming %s', (body, field, description) => {
    expect(readWebhookBody(bytes(body))).toMatchObject({
      ok: false,
      violations: [{ field, description }],
    });
  });

  it('refuses bodies nested too deep without recursing, and bodies over the size limit', () => {
    const deep = `{"event":"X","data":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    expect(readWebhookBody(bytes(deep))).toMatchObject({
      ok: false,
      violations: [{ field: 'body', description: expect.stringContaining(`${MAX_JSON_DEPTH}`) }],
    });
    // Brackets inside strings are text, not nesting.
    expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[[[[[[[['.repeat(10) }), 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[', 3)).toBe(true);
    expect(jsonDepthExceeds('"\\"[[[["', 3)).toBe(false);
    const huge = bytes(
      JSON.stringify({ event: 'X', data: { number: 'A', pad: 'x'.repeat(MAX_BODY_BYTES) } }),
    );
    expect(readWebhookBody(huge)).toMatchObject({
      ok: false,
      violations: [
        {
          field: 'body',
          description: `The body must not be greater than ${MAX_BODY_BYTES} bytes.`,
        },
      ],
    });
  });

  it('keeps what it can read of a refused body, for the log', () => {
    expect(readWebhookBody(bytes('{"event":"TRACKING_UPDATED","data":{}}'))).toMatchObject({
      ok: false,
      event_type: 'TRACKING_UPDATED',
      tracking_number: '',
    });
  });

  it('hashes tokens deterministically without keeping them', () => {
    expect(hashToken('wh_abc')).toBe(hashToken('wh_abc'));
    expect(hashToken('wh_abc')).not.toContain('wh_abc');
    expect(hashToken('wh_abc')).toHaveLength(64);
  });
});
