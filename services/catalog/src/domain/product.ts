import type { FieldViolation } from '@inventory/platform';
import { parseDecimal } from './decimal.js';
import {
  distinct,
  toPageAndSort,
  type PageAndSort,
  type PageAndSortInput,
  type SortKey,
} from './list-query.js';
import { checkText, isRecordId } from './record-version.js';

import { PRODUCT_SORTS } from '@inventory/rules';

/** The gateway documents and checks the same sorts (@inventory/rules). */
export { PRODUCT_SORTS };
export type ProductSortField = (typeof PRODUCT_SORTS)[number];
export const DEFAULT_PRODUCT_SORT: Array<SortKey<ProductSortField>> = [
  { field: 'created_at', descending: true },
];
/** More skus than this in one filter is a mistake, not a query. */
export const MAX_SKU_FILTER = 500;

/** A product as the read model holds it. */
export interface ProductSnapshot {
  id: number;
  sku: string;
  name: string;
  type: string;
  barcode: string | null;
  price: string;
  created_at: Date;
  updated_at: Date;
}

export interface ProductRecordInput {
  product_id: number;
  sku: string;
  name: string;
  type: string;
  barcode?: string | undefined;
  price: string;
  created_at?: Date | undefined;
  updated_at?: Date | undefined;
}

/** Checks a product event's record; a record that can never be shown is reported, not stored. */
export function toProductSnapshot(
  record: ProductRecordInput,
  occurredAt: Date,
): { product: ProductSnapshot } | { problems: string[] } {
  const problems: string[] = [];
  if (!isRecordId(record.product_id)) problems.push('product_id is not a positive integer');
  const sku = checkText(problems, 'sku', record.sku, { required: true, max: 255 });
  const name = checkText(problems, 'name', record.name, { max: 1000 });
  const type = checkText(problems, 'type', record.type, { max: 64 });
  const barcode = checkText(problems, 'barcode', record.barcode ?? '', { max: 255 });
  const price = parseDecimal(record.price);
  if (!price) problems.push('price is not a decimal with at most 11 digits and 4 decimals');
  if (problems.length > 0 || !price) return { problems };
  const createdAt = record.created_at ?? occurredAt;
  return {
    product: {
      id: record.product_id,
      sku,
      name,
      type,
      barcode: barcode === '' ? null : barcode,
      price: price.text,
      created_at: createdAt,
      updated_at: record.updated_at ?? createdAt,
    },
  };
}

export interface ProductQuery extends PageAndSort<ProductSortField> {
  search: string;
  skus: string[];
}

export interface ProductQueryInput extends PageAndSortInput {
  search: string;
  skus: string[];
}

/** Validates a ListProducts request; returns the query or the fields at fault. */
export function toProductQuery(
  input: ProductQueryInput,
): { query: ProductQuery } | { violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const paging = toPageAndSort(input, PRODUCT_SORTS, DEFAULT_PRODUCT_SORT, violations);
  const skus = distinct(input.skus);
  if (skus.length > MAX_SKU_FILTER)
    violations.push({ field: 'skus', description: `At most ${MAX_SKU_FILTER} skus.` });
  if (skus.some((sku) => sku.length > 255))
    violations.push({ field: 'skus', description: 'A sku is at most 255 characters.' });
  const search = input.search.trim();
  if (search.length > 255)
    violations.push({ field: 'search', description: 'The search is at most 255 characters.' });
  if (violations.length > 0) return { violations };
  return { query: { ...paging, search, skus } };
}
