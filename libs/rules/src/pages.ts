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
