import { describe, expect, it } from 'vitest';
import { endOfDay, isoDay, parseDay, parseMdY, startOfDay } from './dates.js';

describe('parseDay', () => {
  it('reads m/d/Y with one or two digits, or exactly two when strict', () => {
    expect(parseDay('3/7/2026')).toEqual({ year: 2026, month: 3, day: 7 });
    expect(parseDay('03/07/2026')).toEqual({ year: 2026, month: 3, day: 7 });
    expect(parseDay('3/7/2026', { strictMdY: true })).toBeUndefined();
    expect(parseDay('03/07/2026', { strictMdY: true })).toEqual({ year: 2026, month: 3, day: 7 });
  });

  it('reads YYYY-MM-DD only when allowed', () => {
    expect(parseDay('2026-03-07')).toBeUndefined();
    expect(parseDay('2026-03-07', { iso: true })).toEqual({ year: 2026, month: 3, day: 7 });
    expect(parseDay('2026-3-7', { iso: true })).toBeUndefined();
  });

  it('refuses days that do not exist and anything that is not a date', () => {
    for (const text of ['02/30/2026', '13/01/2026', '00/10/2026', '2026-02-29', '', 'today'])
      expect(parseDay(text, { iso: true }), text).toBeUndefined();
    expect(parseDay('02/29/2028')).toEqual({ year: 2028, month: 2, day: 29 });
  });

  it('gives the UTC bounds and the ISO form of a day', () => {
    const day = parseDay('12/31/2025')!;
    expect(isoDay(day)).toBe('2025-12-31');
    expect(startOfDay(day).toISOString()).toBe('2025-12-31T00:00:00.000Z');
    expect(endOfDay(day).toISOString()).toBe('2025-12-31T23:59:59.999Z');
  });
});

describe('parseMdY', () => {
  it('turns m/d/Y into an ISO day', () => {
    expect(parseMdY('03/01/2024')).toBe('2024-03-01');
    expect(parseMdY('02/29/2024')).toBe('2024-02-29');
    expect(parseMdY('12/31/1999')).toBe('1999-12-31');
  });

  it.each([
    '3/1/2024',
    '2024-03-01',
    '02/30/2024',
    '02/29/2023',
    '13/01/2024',
    '00/10/2024',
    '01/00/2024',
    '01/01/24',
    '01/01/2024 ',
    'x',
  ])('refuses %j', (text) => {
    expect(parseMdY(text)).toBeUndefined();
  });
});
