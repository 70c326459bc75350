import {
  CATALOG_STREAM,
  productCreated,
  purchaseInvoiceCreated,
  type ProductCreated,
  type PurchaseInvoiceCreated,
} from '@inventory/events';
import { connectNats, ensureStream, EventPublisher } from '@inventory/platform';

type ProductRecord = NonNullable<ProductCreated['product']>;
type InvoiceRecord = NonNullable<PurchaseInvoiceCreated['invoice']>;

/** A handful of products for a development tenant. */
export const DEV_PRODUCTS: ProductRecord[] = [
  {
    product_id: 1,
    sku: 'TSHIRT-BLK-M',
    name: 'T-shirt black M',
    type: 'standard',
    barcode: '0012345678905',
    price: '19.99',
  },
  {
    product_id: 2,
    sku: 'TSHIRT-WHT-M',
    name: 'T-shirt white M',
    type: 'standard',
    barcode: '0012345678912',
    price: '19.99',
  },
  {
    product_id: 3,
    sku: 'HOODIE-GRY-L',
    name: 'Hoodie grey L',
    type: 'standard',
    barcode: '0012345678929',
    price: '49.50',
  },
  { product_id: 4, sku: 'CAP-NVY', name: 'Cap navy', type: 'standard', price: '15' },
  {
    product_id: 5,
    sku: 'GIFT-BUNDLE',
    name: 'Gift bundle (T-shirt + cap)',
    type: 'bundle',
    price: '29.9',
  },
].map((product, index) => ({
  ...product,
  created_at: new Date(Date.UTC(2026, 0, 1 + index)),
  updated_at: new Date(Date.UTC(2026, 0, 1 + index)),
}));

/** A handful of purchase invoices for a development tenant. */
export const DEV_PURCHASE_INVOICES: InvoiceRecord[] = [
  {
    purchase_invoice_id: 1,
    supplier_invoice_number: 'INV-2026-0001',
    status: 'paid',
    currency: 'USD',
    total: '1250.00',
    due_date: '2026-02-01',
  },
  {
    purchase_invoice_id: 2,
    supplier_invoice_number: 'INV-2026-0002',
    status: 'open',
    currency: 'USD',
    total: '980.5',
    due_date: '2026-02-15',
  },
  {
    purchase_invoice_id: 3,
    supplier_invoice_number: 'ACME-7781',
    status: 'open',
    currency: 'EUR',
    total: '12000',
    due_date: '2026-03-01',
  },
  {
    purchase_invoice_id: 4,
    supplier_invoice_number: 'ACME-7790',
    status: 'draft',
    currency: 'EUR',
    total: '75.25',
    due_date: '',
  },
].map((invoice, index) => ({ ...invoice, created_at: new Date(Date.UTC(2026, 0, 10 + index)) }));

/**
 * Publishes `catalog.product.created` and `catalog.purchase_invoice.created` for each record, as
 * the owning areas would, so the catalog read models have data (used by `npm start` and tests).
 * Event ids are derived from tenant + record + version, so seeding twice stores each event once.
 */
export async function seedCatalog(options: {
  natsUrl: string;
  tenantId: string;
  products?: ProductRecord[];
  invoices?: InvoiceRecord[];
  version?: number;
}): Promise<{ products: ProductRecord[]; invoices: InvoiceRecord[] }> {
  const products = options.products ?? DEV_PRODUCTS;
  const invoices = options.invoices ?? DEV_PURCHASE_INVOICES;
  const version = options.version ?? 1;
  const nats = await connectNats(options.natsUrl, 'seed-catalog');
  try {
    await ensureStream(await nats.jetstreamManager(), CATALOG_STREAM);
    const publisher = new EventPublisher(nats.jetstream());
    for (const product of products) {
      await publisher.publish(productCreated, {
        id: `seed-product-${options.tenantId}-${product.product_id}-${version}`,
        tenantId: options.tenantId,
        payload: { product, version },
      });
    }
    for (const invoice of invoices) {
      await publisher.publish(purchaseInvoiceCreated, {
        id: `seed-invoice-${options.tenantId}-${invoice.purchase_invoice_id}-${version}`,
        tenantId: options.tenantId,
        payload: { invoice, version },
      });
    }
    return { products, invoices };
  } finally {
    await nats.drain();
  }
}
