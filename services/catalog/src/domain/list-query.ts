import type { FieldViolation } from '@inventory/platform';

export interface SortKey<Field extends string> {
  field: Field;
  descending: boolean;
}

export const DEFAULT_PER_PAGE = 10;
export const MAX_PAGE = 1_000_000;
/** The spec sets no maximum; a cap keeps one call from reading a whole collection into memory. */
export const MAX_PER_PAGE = 1000;

export interface PageAndSort<Field extends string> {
  sort: Array<SortKey<Field | 'id'>>;
  page: number;
  perPage: number;
}

export interface PageAndSortInput {
  sort: Array<{ field: string; descending: boolean }>;
  page?: { page: number; per_page: number } | undefined;
}

/**
 * Validates the sort keys against `sortable` and the page bounds; pushes what is wrong onto
 * `violations`. The id is appended as the final tiebreak (in the last key's direction), so equal
 * keys page stably.
 */
export function toPageAndSort<Field extends string>(
  input: PageAndSortInput,
  sortable: readonly Field[],
  defaultSort: Array<SortKey<Field>>,
  violations: FieldViolation[],
): PageAndSort<Field> {
  const sort: Array<SortKey<Field | 'id'>> = [];
  for (const key of input.sort) {
    if (!(sortable as readonly string[]).includes(key.field)) {
      violations.push({
        field: 'sort',
        description: `Sorting by ${JSON.stringify(key.field.slice(0, 50))} is not allowed. Allowed sorts are ${sortable.join(', ')}.`,
      });
    } else if (!sort.some((existing) => existing.field === key.field)) {
      sort.push({ field: key.field as Field, descending: key.descending });
    }
  }
  const page = input.page?.page || 1;
  const perPage = input.page?.per_page || DEFAULT_PER_PAGE;
  if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE)
    violations.push({ field: 'page', description: `The page must be between 1 and ${MAX_PAGE}.` });
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    violations.push({
      field: 'per_page',
      description: `The per_page must be between 1 and ${MAX_PER_PAGE}.`,
    });
  }
  const keys = sort.length > 0 ? sort : defaultSort;
  const withTiebreak = keys.some((key) => key.field === 'id')
    ? keys
    : [...keys, { field: 'id' as const, descending: keys[keys.length - 1]?.descending ?? true }];
  return { sort: withTiebreak, page, perPage };
}

/** Trimmed, non-empty, distinct values of a comma-list filter. */
export const distinct = (values: string[]) => [
  ...new Set(values.map((value) => value.trim()).filter((value) => value !== '')),
];

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
