import {
  CatalogServiceService,
  type CatalogServiceServer,
} from '@inventory/contracts/catalog/v1/catalog.js';
import type { AsyncService, ServiceRegistration, UnaryHandler } from '@inventory/platform';
import type { ListProducts } from '../use-cases/list-products.js';
import type { ListPurchaseInvoices } from '../use-cases/list-purchase-invoices.js';
import { presentInvoicePage, presentProductPage } from './mappers.js';

/** Thin handlers: the tenant from metadata, one use case each, encode. */
export function catalogService(useCases: {
  listProducts: ListProducts;
  listPurchaseInvoices: ListPurchaseInvoices;
}): ServiceRegistration<CatalogServiceServer> {
  const implementation: AsyncService<CatalogServiceServer> = {
    listProducts: listing(useCases.listProducts, presentProductPage),
    listPurchaseInvoices: listing(useCases.listPurchaseInvoices, presentInvoicePage),
  };
  return {
    name: 'inventory.catalog.v1.CatalogService',
    definition: CatalogServiceService,
    implementation,
  };
}

/** Every listing handler: the tenant's page from its use case, presented as its proto answer. */
function listing<Request, Page, Response>(
  useCase: { execute(tenantId: string, request: Request): Promise<Page> },
  present: (page: Page) => Response,
): UnaryHandler<Request, Response> {
  return async (request, context) => present(await useCase.execute(context.tenant(), request));
}
