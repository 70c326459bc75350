import { describe, expect, it } from 'vitest';
import {
  FORECAST_WINDOW_DAYS,
  forecastSince,
  nextForecastAlert,
  quotaForecast,
} from './quota-forecast.js';

const now = new Date('2026-03-10T12:00:00Z');

describe('quotaForecast', () => {
  it('divides the remaining quota by the units spent per day over the window', () => {
    // 28 units in 14 days: 2 a day; 101 left lasts 50.5 days.
    expect(quotaForecast(now, 101, 28)).toEqual({
      days_left: 50,
      exhausted_on: '2026-04-30',
      daily_rate: 2,
      window_days: FORECAST_WINDOW_DAYS,
    });
  });

  it('rounds the rate to two decimals but forecasts from the exact one', () => {
    // 10 in 14 days = 0.714.../day; 5 left lasts 7 days exactly.
    const forecast = quotaForecast(now, 5, 10);
    expect(forecast.daily_rate).toBe(0.71);
    expect(forecast.days_left).toBe(7);
    expect(forecast.exhausted_on).toBe('2026-03-17');
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
    expect(quotaForecast(now, null, 28)).toMatchObject({
      days_left: null,
      exhausted_on: null,
      daily_rate: 2,
    });
  });

  it('counts from a rolling window ending now', () => {
    expect(forecastSince(now).toISOString()).toBe('2026-02-24T12:00:00.000Z');
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
