const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a time's UTC day. */
export const utcDay = (time: Date): string => time.toISOString().slice(0, 10);

/** The first instant of a time's UTC day. */
export const startOfUtcDay = (time: Date): Date =>
  new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);

/** The UTC days from `since`'s day to `now`'s, each as its first and next day's first instant. */
export function utcDaysFrom(since: Date, now: Date): Array<{ start: Date; end: Date }> {
  const days: Array<{ start: Date; end: Date }> = [];
  for (let start = startOfUtcDay(since).getTime(); start <= now.getTime(); start += DAY_MS)
    days.push({ start: new Date(start), end: new Date(start + DAY_MS) });
  return days;
}
