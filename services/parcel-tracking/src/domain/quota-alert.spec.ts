import { describe, expect, it } from 'vitest';
import { nextQuotaAlert } from './quota-alert.js';

describe('nextQuotaAlert', () => {
  it('warns once at the threshold, then exhausts once at 100 percent', () => {
    expect(nextQuotaAlert('armed', { used: 79, total: 100 }, 80)).toEqual({
      state: 'armed',
      fire: [],
    });
    expect(nextQuotaAlert('armed', { used: 80, total: 100 }, 80)).toEqual({
      state: 'warned',
      fire: ['warning'],
    });
    expect(nextQuotaAlert('warned', { used: 90, total: 100 }, 80)).toEqual({
      state: 'warned',
      fire: [],
    });
    expect(nextQuotaAlert('warned', { used: 100, total: 100 }, 80)).toEqual({
      state: 'exhausted',
      fire: ['exhausted'],
    });
    expect(nextQuotaAlert('exhausted', { used: 100, total: 100 }, 80)).toEqual({
      state: 'exhausted',
      fire: [],
    });
  });

  it('a jump from below the threshold straight to 100 raises both alerts, warning first', () => {
    expect(nextQuotaAlert('armed', { used: 50, total: 50 }, 80)).toEqual({
      state: 'exhausted',
      fire: ['warning', 'exhausted'],
    });
  });

  it('re-arms when usage falls below the threshold; a zero quota never alerts', () => {
    expect(nextQuotaAlert('exhausted', { used: 100, total: 1000 }, 80)).toEqual({
      state: 'armed',
      fire: [],
    });
    expect(nextQuotaAlert('armed', { used: 0, total: 0 }, 80)).toEqual({
      state: 'armed',
      fire: [],
    });
  });
});
