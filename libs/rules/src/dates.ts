/** A calendar day, as a client wrote it (no time, no zone: the API's days are UTC). */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

export interface DayFormats {
  /**
   * `m/d/Y` with exactly two-digit month and day, as Laravel's `date_format:m/d/Y`
   * checks it (the list filters); otherwise one or two digits (`3/7/2026`).
   */
  strictMdY?: boolean;
  /** Also `YYYY-MM-DD` (the request-log filters). */
  iso?: boolean;
}

const MDY_STRICT = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const MDY_LOOSE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day, when it is a real one: Date.UTC rolls 02/30 over to March, which was not asked for. */
function realDay(year: number, month: number, day: number): CalendarDay | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    Number.isNaN(date.getTime()) ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return undefined;
  return { year, month, day };
}

/**
 * The one date parser: `m/d/Y` (and `YYYY-MM-DD` when allowed) to a real calendar day, or
 * undefined for anything else (`02/30/2026`, `13/01/2026`, `2026-1-5`, free text). Callers
 * answer the 422 (gateway) or the field violation (services).
 */
export function parseDay(text: string, formats: DayFormats = {}): CalendarDay | undefined {
  const mdy = (formats.strictMdY ? MDY_STRICT : MDY_LOOSE).exec(text);
  if (mdy) return realDay(Number(mdy[3]), Number(mdy[1]), Number(mdy[2]));
  return formats.iso ? parseIsoDay(text) : undefined;
}

/** `YYYY-MM-DD` only, a real calendar day (what the services' day filters and records take). */
export function parseIsoDay(text: string): CalendarDay | undefined {
  const iso = ISO_DAY.exec(text);
  return iso ? realDay(Number(iso[1]), Number(iso[2]), Number(iso[3])) : undefined;
}

/**
 * `m/d/Y` exactly as Laravel's `date_format:m/d/Y` checks it (two-digit month and day, a real
 * calendar day) to `YYYY-MM-DD`: the list filters' `filter[date_from]`/`filter[date_to]`.
 */
export function parseMdY(text: string): string | undefined {
  const day = parseDay(text, { strictMdY: true });
  return day && isoDay(day);
}

/** `YYYY-MM-DD` of the day (what the services' day filters take). */
export function isoDay({ year, month, day }: CalendarDay): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The day's first millisecond, UTC. */
export function startOfDay({ year, month, day }: CalendarDay): Date {
  return new Date(Date.UTC(year, month - 1, day));
}

/** The day's last millisecond, UTC: what makes a `date_to` filter inclusive. */
export function endOfDay({ year, month, day }: CalendarDay): Date {
  return new Date(Date.UTC(year, month - 1, day, 23, 59, 59, 999));
}
