/**
 * The quota's end foreseen (ADR 0235): the remaining quota divided by the units spent per day
 * over the last FORECAST_WINDOW_DAYS UTC days, today's hours so far included. The days are the
 * dashboard trends' (ADR 0219), so the forecast costs no read of its own.
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

/** Where the window starts: midnight UTC of the 14th day back, today being the last. */
export function forecastSince(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (FORECAST_WINDOW_DAYS - 1) * DAY_MS);
}

/** Registrations per UTC day (`YYYY-MM-DD`), and how many of them re-used one (ADR 0236). */
export type RegistrationsPerDay = Map<string, { registered: number; reused: number }>;

/** Registrations per day from the days' registration and re-use counts. */
export function registrationsPerDayOf(
  registered: Map<string, number>,
  reused: Map<string, number>,
): RegistrationsPerDay {
  return new Map(
    [...registered].map(([day, count]) => [
      day,
      { registered: count, reused: reused.get(day) ?? 0 },
    ]),
  );
}

/** The units spent on the window's days: registrations that did not re-use one. */
export function spentInWindow(now: Date, perDay: RegistrationsPerDay): number {
  const first = forecastSince(now).toISOString().slice(0, 10);
  let spent = 0;
  for (const [day, counts] of perDay)
    if (day >= first) spent += Math.max(0, counts.registered - counts.reused);
  return spent;
}

/**
 * `remaining` null: the quota could not be read. `spent`: units spent in the window, whose
 * length is the 13 days before today plus today's hours so far, so the rate neither dips in the
 * morning nor jumps at midnight. An exhausted quota has 0 days left and ran out today.
 */
export function quotaForecast(now: Date, remaining: number | null, spent: number): QuotaForecast {
  const elapsed = Math.max(1, (now.getTime() - forecastSince(now).getTime()) / DAY_MS);
  const rate = spent / elapsed;
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
