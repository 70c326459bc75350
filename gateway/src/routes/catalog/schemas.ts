import { flatEnvelopeSchema } from '../../http/page-schemas.js';
import { row } from '../../http/row-schema.js';

/**
 * What the catalog listings answer, and their tags and summaries (their queries are documented
 * from their declared input, listings.ts). Products live under `/api/v2`, purchase invoices under
 * `/api`: the paths the specification shows (ADR 0500).
 */
export const PRODUCT_ROW = row({
  id: 'integer',
  sku: 'string',
  name: 'string',
  type: 'string',
  barcode: 'string?',
  price: { type: 'string', description: 'Decimal string, e.g. "19.99"' },
  created_at: 'date-time',
  updated_at: 'date-time',
});

export const PURCHASE_INVOICE_ROW = row({
  id: 'integer',
  supplier_invoice_number: 'string',
  status: 'string',
  currency: { type: 'string', description: 'ISO 4217' },
  total: { type: 'string', description: 'Decimal string, e.g. "1250.50"; never a float' },
  due_date: { type: ['string', 'null'], format: 'date' },
  created_at: 'date-time',
});

export const catalogSchemas = {
  products: {
    tags: ['Products (prefix /api/v2)'],
    summary: 'List products (flat pagination envelope plus unfiltered_total)',
    description:
      'Served under the `/api/v2` prefix. Requires `products:read`. Sort: `id`, `sku`, `name`, `created_at`, `updated_at`, a leading minus for descending; default `-created_at`, ties by id.',
    response: {
      200: flatEnvelopeSchema(PRODUCT_ROW, {
        unfiltered_total: { type: 'integer', description: 'rows of the tenant before filters' },
      }),
    },
  },
  purchaseInvoices: {
    tags: ['Purchase invoices (prefix /api)'],
    summary: 'List purchase invoices (flat pagination envelope)',
    description:
      'Served under the `/api` prefix. Requires `purchase-orders:read`. Sort: `created_at`, `due_date`, `total` (numeric), a leading minus for descending; default `-created_at`.',
    response: { 200: flatEnvelopeSchema(PURCHASE_INVOICE_ROW) },
  },
};
