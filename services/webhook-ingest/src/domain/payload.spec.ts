import { describe, expect, it } from 'vitest';
import { summarizePayload } from './payload.js';
import { hashToken } from './token-hash.js';

describe('inbound payload summary', () => {
  it('reads event and number from a provider webhook', () => {
    const raw = JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: { number: '1Z999', carrier: 100002 },
    });
    expect(summarizePayload(raw)).toMatchObject({
      event_type: 'TRACKING_UPDATED',
      tracking_number: '1Z999',
    });
  });

  it('keeps non-JSON and odd shapes storable, with empty fields', () => {
    expect(summarizePayload('not json')).toEqual({
      payload: null,
      event_type: '',
      tracking_number: '',
    });
    expect(summarizePayload('[1,2]')).toEqual({
      payload: null,
      event_type: '',
      tracking_number: '',
    });
    expect(summarizePayload('{"event":5}')).toEqual({
      payload: { event: 5 },
      event_type: '',
      tracking_number: '',
    });
  });

  it('hashes tokens deterministically without keeping them', () => {
    expect(hashToken('wh_abc')).toBe(hashToken('wh_abc'));
    expect(hashToken('wh_abc')).not.toContain('wh_abc');
    expect(hashToken('wh_abc')).toHaveLength(64);
  });
});
