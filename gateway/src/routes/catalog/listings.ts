import { PRODUCT_SORTS, PURCHASE_INVOICE_SORTS } from '@inventory/rules';
import type { FastifyInstance } from 'fastify';
import type { CatalogAdapter } from '../../adapters/catalog.js';
import { FLAT_PAGE } from '../../http/page-fields.js';
import { flatPage } from '../../http/pagination.js';
import { query } from '../../http/query-fields.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { presentProduct, presentPurchaseInvoice } from './present.js';
import { catalogSchemas } from './schemas.js';

const PRODUCTS_QUERY = {
  search: query.search({ max: 255, description: 'sku or name substring' }),
  sku: query.list({
    description: 'comma-separated exact skus',
    limit: { maxItems: 500, itemMax: 255 },
  }),
  sort: query.sort(PRODUCT_SORTS, 'one-of'),
  ...FLAT_PAGE,
};

const PURCHASE_INVOICES_QUERY = {
  status: query.list({
    description: 'comma-separated statuses',
    limit: { maxItems: 50, itemMax: 64 },
  }),
  search: query.search({ max: 255, description: 'supplier invoice number substring' }),
  sort: query.sort(PURCHASE_INVOICE_SORTS, 'one-of'),
  ...FLAT_PAGE,
};

/**
 * Listings seen by path (issue #15), from the catalog read models. Products follow rule 1
 * (`products:read` for GET); purchase invoices take the purchase area's read scope (ADR 0503).
 */
export const CATALOG_ROUTES = declareRoutes({
  products: {
    method: 'GET',
    url: '/api/v2/products',
    access: { resource: 'products' },
    input: { query: PRODUCTS_QUERY },
  },
  purchaseInvoices: {
    method: 'GET',
    url: '/api/purchase-invoices',
    access: { scope: 'purchase-orders:read' },
    input: { query: PURCHASE_INVOICES_QUERY },
  },
});

export interface CatalogRouteDeps {
  catalog: CatalogAdapter;
}

/** The listings the specification shows by path, served from the catalog read models. */
export async function catalogRoutes(app: FastifyInstance, deps: CatalogRouteDeps): Promise<void> {
  handle(
    app,
    CATALOG_ROUTES.products,
    { schema: catalogSchemas.products },
    async (request, _reply, { query }) => {
      const page = { page: query.page, perPage: query.per_page };
      const answer = await deps.catalog.listProducts({
        search: query.search,
        skus: query.sku,
        sort: query.sort,
        page: { page: page.page, per_page: page.perPage },
      });
      return flatPage({
        rows: answer.products.map(presentProduct),
        total: answer.page_info?.total ?? 0,
        page,
        baseUrl: request.tenant.base_url,
        url: request.url,
        extra: { unfiltered_total: answer.unfiltered_total },
      });
    },
  );

  handle(
    app,
    CATALOG_ROUTES.purchaseInvoices,
    { schema: catalogSchemas.purchaseInvoices },
    async (request, _reply, { query }) => {
      const page = { page: query.page, perPage: query.per_page };
      const answer = await deps.catalog.listPurchaseInvoices({
        statuses: query.status,
        search: query.search,
        sort: query.sort,
        page: { page: page.page, per_page: page.perPage },
      });
      return flatPage({
        rows: answer.invoices.map(presentPurchaseInvoice),
        total: answer.page_info?.total ?? 0,
        page,
        baseUrl: request.tenant.base_url,
        url: request.url,
      });
    },
  );
}
