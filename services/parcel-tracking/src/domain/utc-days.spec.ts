import { describe, expect, it } from 'vitest';
import { utcDaysFrom } from './utc-days.js';

describe('utcDaysFrom', () => {
  it('lists each UTC day from the first instant of since’s day to now’s day, today included', () => {
    const days = utcDaysFrom(new Date('2026-03-01T15:30:00Z'), new Date('2026-03-03T00:00:00Z'));
    expect(days.map(({ start, end }) => [start.toISOString(), end.toISOString()])).toEqual([
      ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
      ['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
      ['2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
    ]);
  });

  it('is one day when since and now fall on the same day, and none when since is later', () => {
    const noon = new Date('2026-03-01T12:00:00Z');
    expect(utcDaysFrom(noon, new Date('2026-03-01T23:59:59Z'))).toHaveLength(1);
    expect(utcDaysFrom(new Date('2026-03-02T00:00:00Z'), noon)).toEqual([]);
  });
});
