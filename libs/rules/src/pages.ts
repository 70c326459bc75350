/** One key of a list's order. */
export interface SortKey<Field extends string = string> {
  field: Field;
  descending: boolean;
}

/** Equal keys would otherwise page unstably; the id breaks ties in the last key's direction. */
export function withIdTiebreak<Field extends string>(
  sort: Array<SortKey<Field>>,
): Array<SortKey<Field | 'id'>> {
  if (sort.some((key) => key.field === 'id')) return sort;
  return [...sort, { field: 'id', descending: sort[sort.length - 1]?.descending ?? true }];
}

/** Where a page stands in a list (the flat pagination envelope, ADR 0504). */
export interface PageInfo {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number;
  to: number;
}

/** `from`/`to` are 1-based row positions, 0 on an empty page (the gateway renders null). */
export function pageInfo(
  page: number,
  perPage: number,
  total: number,
  rowsOnPage: number,
): PageInfo {
  const from = rowsOnPage > 0 ? (page - 1) * perPage + 1 : 0;
  return {
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    total,
    from,
    to: from === 0 ? 0 : from + rowsOnPage - 1,
  };
}

/** A page request's field the list refuses, and why (a service's field violation). */
export interface PageViolation {
  field: 'page' | 'per_page';
  description: string;
}

/**
 * The one page rule of every list RPC: zero or absent (proto's "not set") takes the first page
 * and the list's default size; `page` is a whole number from 1 (to `maxPage` when the list has
 * one), `per_page` from 1 to the list's maximum. Refused, never clamped.
 */
export function readPage(
  input: { page?: number; per_page?: number } | undefined,
  limits: { defaultPerPage: number; maxPerPage: number; maxPage?: number },
): { page: number; perPage: number; violations: PageViolation[] } {
  const page = input?.page || 1;
  const perPage = input?.per_page || limits.defaultPerPage;
  const violations: PageViolation[] = [];
  if (!Number.isSafeInteger(page) || page < 1 || (limits.maxPage && page > limits.maxPage))
    violations.push({
      field: 'page',
      description: limits.maxPage
        ? `The page must be between 1 and ${limits.maxPage}.`
        : 'The page must be at least 1.',
    });
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > limits.maxPerPage)
    violations.push({
      field: 'per_page',
      description: `The per_page must be between 1 and ${limits.maxPerPage}.`,
    });
  return { page, perPage, violations };
}
