import { PRODUCT_SORTS, PURCHASE_INVOICE_SORTS } from '@inventory/rules';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CatalogAdapter } from '../../adapters/catalog.js';
import { flatPage } from '../../http/pagination.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { ListParams } from './list-params.js';
import { presentProduct, presentPurchaseInvoice } from './present.js';
import { catalogSchemas } from './schemas.js';

/**
 * Listings seen by path (issue #15), from the catalog read models. Products follow rule 1
 * (`products:read` for GET); purchase invoices take the purchase area's read scope (ADR 0503).
 */
export const CATALOG_ROUTES = declareRoutes({
  products: { method: 'GET', url: '/api/v2/products', access: { resource: 'products' } },
  purchaseInvoices: {
    method: 'GET',
    url: '/api/purchase-invoices',
    access: { scope: 'purchase-orders:read' },
  },
});

export interface CatalogRouteDeps {
  catalog: CatalogAdapter;
}

const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

/** The listings the specification shows by path, served from the catalog read models. */
export async function catalogRoutes(app: FastifyInstance, deps: CatalogRouteDeps): Promise<void> {
  // Schemas here are documentation: these routes validate with Laravel-style messages themselves.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  handle(app, CATALOG_ROUTES.products, { schema: catalogSchemas.products }, async (request) => {
    const params = new ListParams(queryOf(request));
    const search = params.search('search');
    const skus = params.commaList('sku', { maxItems: 500, itemMax: 255 });
    const sort = params.sort(PRODUCT_SORTS);
    const page = params.page();
    params.done();
    const answer = await deps.catalog.listProducts({
      search,
      skus,
      sort,
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
  });

  handle(
    app,
    CATALOG_ROUTES.purchaseInvoices,
    { schema: catalogSchemas.purchaseInvoices },
    async (request) => {
      const params = new ListParams(queryOf(request));
      const statuses = params.commaList('status', { maxItems: 50, itemMax: 64 });
      const search = params.search('search');
      const sort = params.sort(PURCHASE_INVOICE_SORTS);
      const page = params.page();
      params.done();
      const answer = await deps.catalog.listPurchaseInvoices({
        statuses,
        search,
        sort,
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
