import { describe, expect, it } from 'vitest';
import { nextQuotaAlert } from './quota-alert.js';

describe('nextQuotaAlert', () => {
  it('warns once at the threshold, then exhausts once at 100 percent', () => {
    expect(nextQuotaAlert('armed', { used: 79, total: 100 }, 80)).toEqual({
      state: 'armed',
      fire: null,
    });
    expect(nextQuotaAlert('armed', { used: 80, total: 100 }, 80)).toEqual({
      state: 'warned',
      fire: 'warning',
    });
    expect(nextQuotaAlert('warned', { used: 90, total: 100 }, 80)).toEqual({
      state: 'warned',
      fire: null,
    });
    expect(nextQuotaAlert('warned', { used: 100, total: 100 }, 80)).toEqual({
      state: 'exhausted',
      fire: 'exhausted',
    });
    expect(nextQuotaAlert('exhausted', { used: 100, total: 100 }, 80)).toEqual({
      state: 'exhausted',
      fire: null,
    });
  });

  it('a jump straight past 100 raises only the exhausted alert', () => {
    expect(nextQuotaAlert('armed', { used: 50, total: 50 }, 80)).toEqual({
      state: 'exhausted',
      fire: 'exhausted',
    });
  });

  it('re-arms when usage falls below the threshold; a zero quota never alerts', () => {
    expect(nextQuotaAlert('exhausted', { used: 100, total: 1000 }, 80)).toEqual({
      state: 'armed',
      fire: null,
    });
    expect(nextQuotaAlert('armed', { used: 0, total: 0 }, 80)).toEqual({
      state: 'armed',
      fire: null,
    });
  });
});
