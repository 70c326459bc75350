/**
 * The raw readings behind the declared query fields (`query-fields.ts`, `page-fields.ts`):
 * `filter[x]` however the query string was parsed, comma lists, and page numbers.
 */

/** Past int32 a gRPC page field would overflow; such a page is empty anyway. */
export const INT32_MAX = 2_147_483_647;

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
 * A page or per-page number: digits only (at most `maxDigits`, 10 unless a list says otherwise),
 * at least 1, at most `max`; otherwise a Laravel-worded field error is recorded and `fallback`
 * returned. `1e9`, `1.5`, `-1`, `0x10` and repeated parameters are refused, not coerced.
 */
export function pageNumber(
  value: unknown,
  field: string,
  fallback: number,
  max: number,
  errors: Record<string, string[]>,
  maxDigits = 10,
): number {
  if (value === undefined || value === '') return fallback;
  const digits = Number.isFinite(maxDigits) ? new RegExp(`^\\d{1,${maxDigits}}$`) : /^\d+$/;
  if (typeof value !== 'string' || !digits.test(value.trim())) {
    (errors[field] ??= []).push(`The ${field} field must be an integer.`);
    return fallback;
  }
  const number = Number(value.trim());
  if (number < 1) (errors[field] ??= []).push(`The ${field} field must be at least 1.`);
  else if (number > max)
    (errors[field] ??= []).push(`The ${field} field must not be greater than ${max}.`);
  return number;
}
