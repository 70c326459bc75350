/**
 * Readers of list-query parameters shared by every list route (activity, trackings, the webhook
 * log): `filter[x]` however the query string was parsed, comma lists, and page numbers.
 */

export type QueryValue = string | string[] | Record<string, unknown> | undefined;

/**
 * Reads `filter[x]` whichever way the query string was parsed: Fastify's default
 * parser keeps the flat key `'filter[x]'`; a qs-style parser nests `{ filter: { x } }`.
 */
export function filterValue(query: Record<string, unknown>, name: string): QueryValue {
  const flat = query[`filter[${name}]`];
  if (flat !== undefined) return flat as QueryValue;
  const nested = query.filter;
  if (nested && typeof nested === 'object' && !Array.isArray(nested))
    return (nested as Record<string, unknown>)[name] as QueryValue;
  return undefined;
}

/** A comma list; repeated keys (`a=x&a=y`) and comma lists combine. Objects are refused. */
export function commaList(value: QueryValue): string[] | undefined {
  if (value === undefined) return [];
  const parts =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value) && value.every((item) => typeof item === 'string')
        ? value
        : undefined;
  if (!parts) return undefined;
  return [
    ...new Set(
      parts
        .flatMap((part) => part.split(','))
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

/**
 * A page or per-page number: digits only (at most 10), at least 1, at most `max`; otherwise a
 * Laravel-worded field error is recorded and `fallback` returned.
 */
export function pageNumber(
  value: unknown,
  field: string,
  fallback: number,
  max: number,
  errors: Record<string, string[]>,
): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value.trim())) {
    (errors[field] ??= []).push(`The ${field} field must be an integer.`);
    return fallback;
  }
  const number = Number(value.trim());
  if (number < 1) (errors[field] ??= []).push(`The ${field} field must be at least 1.`);
  else if (number > max)
    (errors[field] ??= []).push(`The ${field} field must not be greater than ${max}.`);
  return number;
}
