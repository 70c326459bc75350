/**
 * The quota's end foreseen (ADR 0235): the remaining quota divided by the units spent per day
 * over the last FORECAST_WINDOW_DAYS days (a rolling window ending now).
 */
export const FORECAST_WINDOW_DAYS = 14;

/** The forecast alert's bounds: 0 turns it off. */
export const FORECAST_ALERT_DAYS_MAX = 365;
export const DEFAULT_FORECAST_ALERT_DAYS = 0;

const DAY_MS = 24 * 3600 * 1000;

export interface QuotaForecast {
  /** Whole days the remaining quota lasts at the rate; null when unknown or nothing is spent. */
  days_left: number | null;
  /** The UTC day the quota runs out (`YYYY-MM-DD`); null with days_left. */
  exhausted_on: string | null;
  /** Units per day over the window, two decimals. */
  daily_rate: number;
  window_days: number;
}

/** Where the window of registrations that count starts. */
export function forecastSince(now: Date): Date {
  return new Date(now.getTime() - FORECAST_WINDOW_DAYS * DAY_MS);
}

/**
 * `remaining` null: the quota could not be read. `spent`: registrations in the window that cost
 * a unit. An exhausted quota has 0 days left and ran out today.
 */
export function quotaForecast(now: Date, remaining: number | null, spent: number): QuotaForecast {
  const rate = spent / FORECAST_WINDOW_DAYS;
  const daily_rate = Math.round(rate * 100) / 100;
  if (remaining === null || spent <= 0)
    return { days_left: null, exhausted_on: null, daily_rate, window_days: FORECAST_WINDOW_DAYS };
  const days = Math.max(0, remaining) / rate;
  return {
    days_left: Math.floor(days),
    exhausted_on: new Date(now.getTime() + days * DAY_MS).toISOString().slice(0, 10),
    daily_rate,
    window_days: FORECAST_WINDOW_DAYS,
  };
}

export type ForecastAlertState = 'armed' | 'fired';

/**
 * The forecast alert: fires once when days_left falls under the setting, re-arms when it is at
 * or above it again (or nothing is spent any more); 0 days is off. An unknown quota moves nothing.
 */
export function nextForecastAlert(
  state: ForecastAlertState,
  forecast: QuotaForecast,
  alertDays: number,
  quotaKnown: boolean,
): { state: ForecastAlertState; fire: boolean } {
  if (!quotaKnown) return { state, fire: false };
  const under = alertDays > 0 && forecast.days_left !== null && forecast.days_left < alertDays;
  if (!under) return { state: 'armed', fire: false };
  return state === 'armed' ? { state: 'fired', fire: true } : { state, fire: false };
}
