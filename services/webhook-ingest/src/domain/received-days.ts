import type { FieldViolation } from '@inventory/platform';
import { parseIsoDay } from '@inventory/rules';

/** A day `YYYY-MM-DD` as the first or last millisecond of that UTC day; null when not a day. */
export function dayBound(text: string | undefined, end: 'from' | 'to'): Date | undefined | null {
  if (text === undefined || text === '') return undefined;
  const day = parseIsoDay(text);
  if (!day) return null;
  return end === 'from'
    ? new Date(Date.UTC(day.year, day.month - 1, day.day))
    : new Date(Date.UTC(day.year, day.month - 1, day.day + 1) - 1);
}

/**
 * The log filter's `date_from` and `date_to` as bounds of the rows' receipt, each day whole; a
 * day that is not one is reported in `violations` under its filter field.
 */
export function receivedDays(
  received: { from?: string; to?: string } | undefined,
  violations: FieldViolation[],
): { from?: Date; to?: Date } {
  const bounds: { from?: Date; to?: Date } = {};
  for (const [end, field] of [
    ['from', 'filter.date_from'],
    ['to', 'filter.date_to'],
  ] as const) {
    const bound = dayBound(received?.[end], end);
    if (bound === null)
      violations.push({ field, description: `The ${field} field must be a date.` });
    else if (bound) bounds[end] = bound;
  }
  return bounds;
}
