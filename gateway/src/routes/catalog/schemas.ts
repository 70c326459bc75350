/**
 * OpenAPI documentation of the catalog listings (the routes validate with Laravel-style messages
 * themselves). Products live under `/api/v2`, purchase invoices under `/api`: the paths the
 * specification shows (ADR 0500).
 */
const page = {
  page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
};

const link = {
  type: 'object',
  properties: {
    url: { type: ['string', 'null'] },
    label: { type: 'string', description: '"« Previous", a page number, "..." or "Next »"' },
    active: { type: 'boolean' },
  },
};

/** The flat pagination envelope (spec "Pagination envelopes" rule 1) around `item`. */
function flatEnvelope(item: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const integer = { type: 'integer' };
  const nullableInteger = { type: ['integer', 'null'] };
  const url = { type: 'string' };
  const nullableUrl = { type: ['string', 'null'] };
  return {
    type: 'object',
    properties: {
      data: { type: 'array', items: item },
      current_page: integer,
      last_page: integer,
      per_page: integer,
      total: integer,
      from: nullableInteger,
      to: nullableInteger,
      first_page_url: url,
      last_page_url: url,
      next_page_url: nullableUrl,
      prev_page_url: nullableUrl,
      path: url,
      links: { type: 'array', items: link },
      ...extra,
    },
  };
}

const product = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string' },
    name: { type: 'string' },
    type: { type: 'string' },
    barcode: { type: ['string', 'null'] },
    price: { type: 'string', description: 'Decimal string, e.g. "19.99"' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

const purchaseInvoice = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    supplier_invoice_number: { type: 'string' },
    status: { type: 'string' },
    currency: { type: 'string', description: 'ISO 4217' },
    total: { type: 'string', description: 'Decimal string, e.g. "1250.50"; never a float' },
    due_date: { type: ['string', 'null'], format: 'date' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

export const catalogSchemas = {
  products: {
    tags: ['Products (prefix /api/v2)'],
    summary: 'List products (flat pagination envelope plus unfiltered_total)',
    description:
      'Served under the `/api/v2` prefix. Requires `products:read`. Sort: `id`, `sku`, `name`, `created_at`, `updated_at`, a leading minus for descending; default `-created_at`, ties by id.',
    querystring: {
      type: 'object',
      properties: {
        ...page,
        'filter[search]': { type: 'string', description: 'sku or name substring' },
        'filter[sku]': { type: 'string', description: 'comma-separated exact skus' },
        sort: { type: 'string', default: '-created_at' },
      },
    },
    response: {
      200: flatEnvelope(product, {
        unfiltered_total: { type: 'integer', description: 'rows of the tenant before filters' },
      }),
    },
  },
  purchaseInvoices: {
    tags: ['Purchase invoices (prefix /api)'],
    summary: 'List purchase invoices (flat pagination envelope)',
    description:
      'Served under the `/api` prefix. Requires `purchase-orders:read`. Sort: `created_at`, `due_date`, `total` (numeric), a leading minus for descending; default `-created_at`.',
    querystring: {
      type: 'object',
      properties: {
        ...page,
        'filter[status]': { type: 'string', description: 'comma-separated statuses' },
        'filter[search]': { type: 'string', description: 'supplier invoice number substring' },
        sort: { type: 'string', default: '-created_at' },
      },
    },
    response: { 200: flatEnvelope(purchaseInvoice) },
  },
};
