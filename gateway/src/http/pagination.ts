import { pageInfo } from '@inventory/rules';

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

/** The rule's page info (`@inventory/rules`), with the specification's null for an empty page. */
export function pageMeta(
  page: number,
  perPage: number,
  total: number,
  rowsOnPage: number,
): PageMeta {
  const info = pageInfo(page, perPage, total, rowsOnPage);
  return { ...info, from: info.from || null, to: info.to || null };
}

/** `path` is the absolute URL without query; `query` is the request's raw query string (without `?`). */
function pageUrl(path: string, query: string, page: number): string {
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

/** Laravel's pagination labels (lang/en/pagination.php), as a client reads them once decoded. */
export const PREVIOUS_LABEL = '« Previous';
export const NEXT_LABEL = 'Next »';
/** Laravel's `onEachSide` default: page numbers shown either side of the current one. */
const ON_EACH_SIDE = 3;

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/**
 * The page numbers of Laravel's `UrlWindow`, with `'...'` where pages are elided: every page
 * while there are fewer than 14, else the first 10 / last 10 near an end, or 1, 2, … current
 * ±3 … the last two. A 10,000-page listing so answers ~17 links, not 10,000.
 */
export function pageWindow(current: number, lastPage: number): Array<number | '...'> {
  const range = (from: number, to: number) =>
    Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  const window = ON_EACH_SIDE + 4;
  const start = [1, 2];
  const finish = [lastPage - 1, lastPage];
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), '...', ...finish];
  if (current > lastPage - window) {
    return [...start, '...', ...range(lastPage - (window + (ON_EACH_SIDE - 1)), lastPage)];
  }
  return [
    ...start,
    '...',
    ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE),
    '...',
    ...finish,
  ];
}

export interface FlatEnvelope<T> extends PageMeta {
  data: T[];
  first_page_url: string;
  last_page_url: string;
  next_page_url: string | null;
  prev_page_url: string | null;
  path: string;
  links: PageLink[];
}

/** Envelope 1: general list endpoints (flat, Laravel paginator shape). */
export function flatEnvelope<T, Extra extends Record<string, unknown> = Record<never, never>>(
  data: T[],
  meta: PageMeta,
  path: string,
  query: string,
  extra: Extra = {} as Extra,
): FlatEnvelope<T> & Extra {
  const prev = meta.current_page > 1 ? pageUrl(path, query, meta.current_page - 1) : null;
  const next =
    meta.current_page < meta.last_page ? pageUrl(path, query, meta.current_page + 1) : null;
  const links: PageLink[] = [
    { url: prev, label: PREVIOUS_LABEL, active: false },
    ...pageWindow(meta.current_page, meta.last_page).map((page) =>
      page === '...'
        ? { url: null, label: '...', active: false }
        : {
            url: pageUrl(path, query, page),
            label: String(page),
            active: page === meta.current_page,
          },
    ),
    { url: next, label: NEXT_LABEL, active: false },
  ];
  return {
    data,
    ...meta,
    first_page_url: pageUrl(path, query, 1),
    last_page_url: pageUrl(path, query, meta.last_page),
    next_page_url: next,
    prev_page_url: prev,
    path,
    links,
    ...extra,
  };
}

/** The largest `page` and `per_page` accepted; beyond them the request is 422, not clamped. */
export const MAX_PAGE = 1_000_000;
export const MAX_PER_PAGE = 1000;
export const DEFAULT_PER_PAGE = 10;

export interface PageRequest {
  page: number;
  perPage: number;
}

/**
 * THE flat envelope of every general list endpoint (spec "Pagination envelopes" rule 1):
 * `rows` is the page the service answered for `page`, `total` the filtered row count. A page
 * past the end is empty `data` with the real totals. `url` is the request's URL (path and
 * raw query), so every generated URL keeps its filters, sort and search; `baseUrl` is the
 * tenant's `{base_url}`. `extra` adds top-level fields (e.g. `unfiltered_total`).
 */
export function flatPage<T, Extra extends Record<string, unknown> = Record<never, never>>(input: {
  rows: T[];
  total: number;
  page: PageRequest;
  baseUrl: string;
  url: string;
  extra?: Extra;
}): FlatEnvelope<T> & Extra {
  const mark = input.url.indexOf('?');
  const pathname = mark < 0 ? input.url : input.url.slice(0, mark);
  const query = mark < 0 ? '' : input.url.slice(mark + 1);
  const meta = pageMeta(input.page.page, input.page.perPage, input.total, input.rows.length);
  return flatEnvelope(
    input.rows,
    meta,
    `${input.baseUrl}${pathname}`,
    query,
    input.extra ?? ({} as Extra),
  );
}

/** The request's raw query (after `?`), as the page links carry it on. */
export function rawQueryOf(request: { url: string }): string {
  const at = request.url.indexOf('?');
  return at < 0 ? '' : request.url.slice(at + 1);
}
