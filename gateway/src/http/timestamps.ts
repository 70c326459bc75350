/** A timestamp as the API writes it: ISO 8601 in UTC with milliseconds, or null when unset. */
export const isoOrNull = (date: Date | undefined): string | null =>
  date ? date.toISOString() : null;
