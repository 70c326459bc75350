import { CATALOG_STREAM } from '@inventory/events';
import { ServiceRuntime } from '@inventory/platform';
import { readConfig } from './config.js';
import { consumeCatalogRecords } from './events/record-consumers.js';
import { catalogService } from './grpc/catalog-service.js';
import { ProductRepository } from './store/product-repository.js';
import { PurchaseInvoiceRepository } from './store/purchase-invoice-repository.js';
import { ApplyRecordChange } from './use-cases/apply-record-change.js';
import { PRODUCT_RECORDS, PURCHASE_INVOICE_RECORDS } from './use-cases/record-kinds.js';
import { ListProducts } from './use-cases/list-products.js';
import { ListPurchaseInvoices } from './use-cases/list-purchase-invoices.js';

export const SERVICE_NAME = 'catalog';

/**
 * Wires the service and starts serving; the returned runtime's `stop()` drains and closes. A
 * failed wiring step stops what was started (ServiceRuntime.run).
 */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  // The stream is declared here too, so the consumers can bind before any producer has started.
  return ServiceRuntime.run(
    { name: SERVICE_NAME, config, dbName: config.MONGO_DB, streams: [CATALOG_STREAM] },
    async (runtime) => {
      const products = new ProductRepository(runtime.mongo);
      const invoices = new PurchaseInvoiceRepository(runtime.mongo);
      // Serving first builds the indexes (the unique (tenant_id, id) ones) before any event is stored.
      await runtime.serve([
        catalogService({
          listProducts: new ListProducts(products),
          listPurchaseInvoices: new ListPurchaseInvoices(invoices),
        }),
      ]);
      await consumeCatalogRecords(runtime, {
        products: new ApplyRecordChange(PRODUCT_RECORDS, products, runtime.logger),
        invoices: new ApplyRecordChange(PURCHASE_INVOICE_RECORDS, invoices, runtime.logger),
      });
    },
  );
}
