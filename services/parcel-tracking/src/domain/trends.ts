import { startOfUtcDay, utcDay } from './utc-days.js';

/** The dashboard's trends window: the last 30 UTC days, today included. */
export const TREND_DAYS = 30;

const DAY_MS = 24 * 3600 * 1000;

export interface DailyCounts {
  date: string;
  registered: number;
  delivered: number;
}

export interface Trends {
  days: number;
  daily: DailyCounts[];
}

/** Midnight UTC of the first day of the window ending today (the day of `now`). */
export function trendsSince(now: Date): Date {
  return new Date(startOfUtcDay(now).getTime() - (TREND_DAYS - 1) * DAY_MS);
}

/**
 * One entry per day of the window, oldest first, from the per-day counts the store grouped
 * (`YYYY-MM-DD` keys): a day nothing happened on counts 0, so a chart's days are evenly spaced.
 */
export function dailyTrends(
  now: Date,
  registered: Map<string, number>,
  delivered: Map<string, number>,
): Trends {
  const since = trendsSince(now).getTime();
  const daily: DailyCounts[] = [];
  for (let day = 0; day < TREND_DAYS; day++) {
    const date = utcDay(new Date(since + day * DAY_MS));
    daily.push({
      date,
      registered: registered.get(date) ?? 0,
      delivered: delivered.get(date) ?? 0,
    });
  }
  return { days: TREND_DAYS, daily };
}
