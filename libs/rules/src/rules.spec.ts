import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_MAX_PER_PAGE,
  ACTIVITY_SORTS,
  AUTO_TRACK_KEYS,
  DELIVERY_STATUSES,
  OUTBOUND_DELIVERY_STATUSES,
  parseDay,
  parseIsoDay,
  parseMdY,
  SIDE_EFFECT_KEYS,
  TRACKABLE_TYPE_SLUGS,
  TRACKABLE_TYPES,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
  WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
  WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
} from './index.js';

describe('the one date parser', () => {
  it('reads m/d/Y (loose or strict) and, when allowed, YYYY-MM-DD', () => {
    expect(parseDay('3/7/2026')).toEqual({ year: 2026, month: 3, day: 7 });
    expect(parseDay('3/7/2026', { strictMdY: true })).toBeUndefined();
    expect(parseDay('2026-03-07')).toBeUndefined();
    expect(parseDay('2026-03-07', { iso: true })).toEqual({ year: 2026, month: 3, day: 7 });
  });

  it('reads YYYY-MM-DD alone with parseIsoDay, and only real days', () => {
    expect(parseIsoDay('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    for (const text of ['2026-02-29', '2026-1-01', '03/07/2026', '2026-13-01', ''])
      expect(parseIsoDay(text), text).toBeUndefined();
  });

  it('turns a strict m/d/Y into YYYY-MM-DD (the list filters)', () => {
    expect(parseMdY('03/01/2024')).toBe('2024-03-01');
    expect(parseMdY('02/30/2024')).toBeUndefined();
    expect(parseMdY('3/1/2024')).toBeUndefined();
  });
});

describe('the rules both sides import', () => {
  it('hold the specification values', () => {
    expect(DELIVERY_STATUSES).toHaveLength(10);
    expect(DELIVERY_STATUSES[0]).toBe('pending');
    expect(AUTO_TRACK_KEYS).toContain('vendor_credit_shipments');
    expect(SIDE_EFFECT_KEYS).toContain('rma_arrival_alert');
    expect(ACTIVITY_SORTS).toEqual(['created_at', 'event', 'id']);
    expect(ACTIVITY_MAX_PER_PAGE).toBe(1000);
    expect(WEBHOOK_RESULTS).toEqual(['processed', 'failed', 'ignored']);
    expect(WEBHOOK_LOG_SORTS).toEqual(['received_at', 'created_at', 'event_type', 'result']);
    expect(WEBHOOK_LOG_MAX_PER_PAGE).toBe(1000);
    expect(OUTBOUND_DELIVERY_STATUSES).toEqual([
      'pending',
      'succeeded',
      'failed',
      'dropped',
      'skipped',
      'held',
    ]);
    expect(WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE).toBe(10);
    expect(WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE).toBe(1000);
  });
});

describe('the trackable types', () => {
  it('give each auto_track flag to exactly one type, in the same order', () => {
    expect(TRACKABLE_TYPE_SLUGS.map((slug) => TRACKABLE_TYPES[slug].autoTrackKey)).toEqual([
      ...AUTO_TRACK_KEYS,
    ]);
  });
});
