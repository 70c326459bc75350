/**
 * The specification's two pagination envelopes, with page URLs that keep every
 * filter, sort and search parameter of the request.
 */
export interface PageMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  /** 1-based index of the first row on this page; null when the page is empty. */
  from: number | null;
  to: number | null;
}

export function pageMeta(
  page: number,
  perPage: number,
  total: number,
  rowsOnPage: number,
): PageMeta {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const from = rowsOnPage > 0 ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    last_page: lastPage,
    per_page: perPage,
    total,
    from,
    to: from === null ? null : from + rowsOnPage - 1,
  };
}

/** `path` is the absolute URL without query; `query` is the request's raw query string (without `?`). */
export function pageUrl(path: string, query: string, page: number): string {
  const params = new URLSearchParams(query);
  params.set('page', String(page));
  return `${path}?${params.toString()}`;
}

/** Envelope 2: the parcel-tracking list endpoints (`data`, `links`, `meta`). */
export function linksMetaEnvelope<T>(data: T[], meta: PageMeta, path: string, query: string) {
  return {
    data,
    links: {
      first: pageUrl(path, query, 1),
      last: pageUrl(path, query, meta.last_page),
      prev: meta.current_page > 1 ? pageUrl(path, query, meta.current_page - 1) : null,
      next: meta.current_page < meta.last_page ? pageUrl(path, query, meta.current_page + 1) : null,
    },
    meta: { ...meta, path },
  };
}

/** Envelope 1: general list endpoints (flat, Laravel paginator shape). */
export function flatEnvelope<T>(
  data: T[],
  meta: PageMeta,
  path: string,
  query: string,
  extra: Record<string, unknown> = {},
) {
  const links: Array<{ url: string | null; label: string; active: boolean }> = [
    {
      url: meta.current_page > 1 ? pageUrl(path, query, meta.current_page - 1) : null,
      label: '&laquo; Previous',
      active: false,
    },
  ];
  for (let page = 1; page <= meta.last_page; page++) {
    links.push({
      url: pageUrl(path, query, page),
      label: String(page),
      active: page === meta.current_page,
    });
  }
  links.push({
    url: meta.current_page < meta.last_page ? pageUrl(path, query, meta.current_page + 1) : null,
    label: 'Next &raquo;',
    active: false,
  });
  return {
    data,
    ...meta,
    first_page_url: pageUrl(path, query, 1),
    last_page_url: pageUrl(path, query, meta.last_page),
    next_page_url:
      meta.current_page < meta.last_page ? pageUrl(path, query, meta.current_page + 1) : null,
    prev_page_url: meta.current_page > 1 ? pageUrl(path, query, meta.current_page - 1) : null,
    path,
    links,
    ...extra,
  };
}
