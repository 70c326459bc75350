import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CatalogAdapter } from '../../adapters/catalog.js';
import { flatPage } from '../../http/pagination.js';
import { ListParams } from './list-params.js';
import { presentProduct, presentPurchaseInvoice } from './present.js';
import { catalogSchemas } from './schemas.js';

export const PRODUCTS_PATH = '/api/v2/products';
export const PURCHASE_INVOICES_PATH = '/api/purchase-invoices';

export const PRODUCT_SORTS = ['id', 'sku', 'name', 'created_at', 'updated_at'] as const;
export const PURCHASE_INVOICE_SORTS = ['created_at', 'due_date', 'total'] as const;

export interface CatalogRouteDeps {
  catalog: CatalogAdapter;
}

const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

/** The listings the specification shows by path, served from the catalog read models. */
export async function catalogRoutes(app: FastifyInstance, deps: CatalogRouteDeps): Promise<void> {
  // Schemas here are documentation: these routes validate with Laravel-style messages themselves.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.get(PRODUCTS_PATH, { schema: catalogSchemas.products }, async (request) => {
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

  app.get(PURCHASE_INVOICES_PATH, { schema: catalogSchemas.purchaseInvoices }, async (request) => {
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
  });
}
