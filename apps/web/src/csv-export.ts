import Papa from 'papaparse';
import { api, withQuery } from './api.js';
import type { LinksMetaPage } from './api-types.js';

/** A column as text for a spreadsheet: its heading and each row's plain value. */
export interface CsvColumn<Row> {
  label: string;
  text: (row: Row) => string | number | null | undefined;
}

/** The API's largest page: the fewest requests for a whole list. */
export const EXPORT_PAGE_SIZE = 100;
/** Past this a spreadsheet is the wrong tool: the export stops and says so. */
export const EXPORT_MAX_ROWS = 10_000;

/**
 * RFC 4180 text of the rows. A cell that a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@`, tab, carriage return first) is prefixed with `'`: a tracking number or a webhook's event
 * type comes from outside and must not become a formula in the admin's spreadsheet.
 */
export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  return Papa.unparse(
    {
      fields: columns.map((column) => column.label),
      data: rows.map((row) => columns.map((column) => column.text(row) ?? '')),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

export interface ExportProgress {
  rows: number;
  total: number;
}

/**
 * Every page of a links/meta list with the given query (its filters and sort), in order, up to
 * EXPORT_MAX_ROWS. `progress` is told after each page; `cancelled()` is asked before each one.
 */
export async function fetchAllRows<Row>(
  path: string,
  query: Record<string, string>,
  progress: (done: ExportProgress) => void,
  cancelled: () => boolean = () => false,
): Promise<{ rows: Row[]; total: number; truncated: boolean }> {
  const rows: Row[] = [];
  let total = 0;
  for (let page = 1; ; page += 1) {
    if (cancelled()) break;
    const answer = await api<LinksMetaPage<Row>>(
      'GET',
      withQuery(path, { ...query, page, per_page: EXPORT_PAGE_SIZE }),
    );
    total = answer.meta.total;
    rows.push(...answer.data);
    progress({ rows: Math.min(rows.length, EXPORT_MAX_ROWS), total });
    if (rows.length >= EXPORT_MAX_ROWS)
      return { rows: rows.slice(0, EXPORT_MAX_ROWS), total, truncated: true };
    if (page >= answer.meta.last_page || answer.data.length === 0) break;
  }
  return { rows, total, truncated: false };
}

/** `trackings-2026-11-29.csv`: the list's name and the day it was taken. */
export function csvFileName(title: string, now = new Date()): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug}-${now.toISOString().slice(0, 10)}.csv`;
}

/** Hands the text to the browser as a download (a UTF-8 BOM so spreadsheets read accents). */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
