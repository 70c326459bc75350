import { describe, expect, it } from 'vitest';
import {
  FORECAST_WINDOW_DAYS,
  forecastSince,
  nextForecastAlert,
  quotaForecast,
  spentInWindow,
} from './quota-forecast.js';

// Noon: the window is the 13 days before today and half of today, 13.5 days.
const now = new Date('2026-03-10T12:00:00Z');

describe('quotaForecast', () => {
  it('divides the remaining quota by the units spent per day over the window', () => {
    // 27 units in 13.5 days: 2 a day; 101 left last 50.5 days.
    expect(quotaForecast(now, 101, 27)).toEqual({
      days_left: 50,
      exhausted_on: '2026-04-30',
      daily_rate: 2,
      window_days: FORECAST_WINDOW_DAYS,
    });
  });

  it('rounds the rate to two decimals but forecasts from the exact one', () => {
    // 10 in 13.5 days = 0.7407.../day; 5 left last 6.75 days.
    const forecast = quotaForecast(now, 5, 10);
    expect(forecast.daily_rate).toBe(0.74);
    expect(forecast.days_left).toBe(6);
    expect(forecast.exhausted_on).toBe('2026-03-17');
  });

  it('counts today’s hours so far: at midnight the window is 13 days, at its end 14', () => {
    expect(quotaForecast(new Date('2026-03-10T00:00:00Z'), 130, 26).daily_rate).toBe(2);
    expect(quotaForecast(new Date('2026-03-10T23:59:59.999Z'), 140, 28).daily_rate).toBe(2);
  });

  it('an exhausted quota has 0 days left, today', () => {
    expect(quotaForecast(now, 0, 14)).toMatchObject({ days_left: 0, exhausted_on: '2026-03-10' });
  });

  it('is null when nothing was spent in the window or the quota is unknown', () => {
    expect(quotaForecast(now, 100, 0)).toEqual({
      days_left: null,
      exhausted_on: null,
      daily_rate: 0,
      window_days: FORECAST_WINDOW_DAYS,
    });
    expect(quotaForecast(now, null, 27)).toMatchObject({
      days_left: null,
      exhausted_on: null,
      daily_rate: 2,
    });
  });

  it('the window starts at midnight UTC 13 days before today', () => {
    expect(forecastSince(now).toISOString()).toBe('2026-02-25T00:00:00.000Z');
  });

  it('spends the window’s registrations that did not re-use one', () => {
    const perDay = new Map([
      ['2026-02-24', { registered: 9, reused: 0 }],
      ['2026-02-25', { registered: 3, reused: 1 }],
      ['2026-03-10', { registered: 5, reused: 0 }],
    ]);
    expect(spentInWindow(now, perDay)).toBe(7);
  });
});

describe('nextForecastAlert', () => {
  const at = (days: number | null) => ({ ...quotaForecast(now, 0, 0), days_left: days });

  it('fires once when days left fall under the setting, and re-arms at or above it', () => {
    expect(nextForecastAlert('armed', at(10), 7, true)).toEqual({ state: 'armed', fire: false });
    expect(nextForecastAlert('armed', at(6), 7, true)).toEqual({ state: 'fired', fire: true });
    expect(nextForecastAlert('fired', at(3), 7, true)).toEqual({ state: 'fired', fire: false });
    expect(nextForecastAlert('fired', at(7), 7, true)).toEqual({ state: 'armed', fire: false });
    expect(nextForecastAlert('armed', at(0), 7, true)).toEqual({ state: 'fired', fire: true });
  });

  it('never fires when off, when nothing is spent, or moves when the quota is unknown', () => {
    expect(nextForecastAlert('armed', at(0), 0, true)).toEqual({ state: 'armed', fire: false });
    expect(nextForecastAlert('fired', at(null), 7, true)).toEqual({ state: 'armed', fire: false });
    expect(nextForecastAlert('fired', at(null), 7, false)).toEqual({ state: 'fired', fire: false });
  });
});
