import {
  CatalogServiceService,
  type CatalogServiceServer,
} from '@inventory/contracts/catalog/v1/catalog.js';
import type { AsyncService, ServiceRegistration } from '@inventory/platform';
import type { ListProducts } from '../use-cases/list-products.js';
import type { ListPurchaseInvoices } from '../use-cases/list-purchase-invoices.js';
import { toInvoiceMessage, toProductMessage } from './mappers.js';

/** Thin handlers: the tenant from metadata, one use case each, encode. */
export function catalogService(useCases: {
  listProducts: ListProducts;
  listPurchaseInvoices: ListPurchaseInvoices;
}): ServiceRegistration<CatalogServiceServer> {
  const implementation: AsyncService<CatalogServiceServer> = {
    async listProducts(request, context) {
      const { rows, page, unfilteredTotal } = await useCases.listProducts.execute(
        context.tenant(),
        request,
      );
      return {
        products: rows.map(toProductMessage),
        page_info: page,
        unfiltered_total: unfilteredTotal,
      };
    },
    async listPurchaseInvoices(request, context) {
      const { rows, page } = await useCases.listPurchaseInvoices.execute(context.tenant(), request);
      return { invoices: rows.map(toInvoiceMessage), page_info: page };
    },
  };
  return {
    name: 'inventory.catalog.v1.CatalogService',
    definition: CatalogServiceService,
    implementation,
  };
}
