import type { FieldViolation } from '@inventory/platform';
import { withIdTiebreak, type SortKey, readPage } from '@inventory/rules';

/** Page arithmetic and sort keys are shared with the other lists (@inventory/rules). */
export { pageInfo, type PageInfo, type SortKey } from '@inventory/rules';

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
  const {
    page,
    perPage,
    violations: pageViolations,
  } = readPage(input.page, {
    defaultPerPage: DEFAULT_PER_PAGE,
    maxPerPage: MAX_PER_PAGE,
    maxPage: MAX_PAGE,
  });
  violations.push(...pageViolations);
  return {
    sort: withIdTiebreak<Field | 'id'>(sort.length > 0 ? sort : defaultSort),
    page,
    perPage,
  };
}

/** Trimmed, non-empty, distinct values of a comma-list filter. */
export const distinct = (values: string[]) => [
  ...new Set(values.map((value) => value.trim()).filter((value) => value !== '')),
];
