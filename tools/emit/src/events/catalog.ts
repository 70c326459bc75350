import {
  CATALOG_STREAM,
  productCreated,
  productDeleted,
  productUpdated,
  purchaseInvoiceCreated,
  purchaseInvoiceDeleted,
  purchaseInvoiceUpdated,
} from '@inventory/events';
import { z, type ZodType, type ZodTypeDef } from 'zod';
import { emittable, type EmittableEvent } from '../emittable-event.js';

/**
 * Named by their subjects (`catalog.product.created`...). `catalog.product.created` is also the
 * one fact behind the outbound webhook event `product.created`: outbound-delivery delivers it to
 * that event's subscribers (ADR 0416), so no second event is emitted for it.
 *
 * The products and purchase-invoices areas' events, which services/catalog reads into the
 * listings `GET /api/v2/products` and `GET /api/purchase-invoices`. `--data` is the record's
 * fields flat, plus an optional `version` (default: the time in ms, so a later emit wins).
 */
/**
 * `EmittableEvent.data` is typed `ZodType<T>` (input = output), but these schemas read friendlier
 * JSON (flat fields, ISO text times, an optional version) and transform it into the payload `T`;
 * the command only uses what `parse` returns, so only the output type matters.
 */
const payloadOf = <T>(schema: ZodType<T, ZodTypeDef, unknown>) => schema as unknown as ZodType<T>;

const id = z.number().int().positive();
const decimal = z.string().regex(/^-?\d{1,11}(\.\d{1,4})?$/, 'a decimal string such as "19.99"');
const timestamp = z
  .string()
  .datetime({ offset: true })
  .transform((text) => new Date(text));
const version = z.number().int().positive().optional();
const versionOrNow = (given: number | undefined) => given ?? Date.now();

const productFields = z
  .object({
    product_id: id,
    sku: z.string().min(1).max(255),
    name: z.string().max(1000).default(''),
    type: z.string().max(64).default('standard'),
    barcode: z.string().max(255).optional(),
    price: decimal,
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
    version,
  })
  .strict();
const productSnapshot = payloadOf(
  productFields.transform(({ version: given, ...product }) => ({
    product,
    version: versionOrNow(given),
  })),
);

const invoiceFields = z
  .object({
    purchase_invoice_id: id,
    supplier_invoice_number: z.string().max(255).default(''),
    status: z.string().min(1).max(64),
    currency: z.string().regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code such as "USD"'),
    total: decimal,
    due_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
      .default(''),
    created_at: timestamp.optional(),
    version,
  })
  .strict();
const invoiceSnapshot = payloadOf(
  invoiceFields.transform(({ version: given, ...invoice }) => ({
    invoice,
    version: versionOrNow(given),
  })),
);

export const CATALOG_EVENTS: EmittableEvent[] = [
  emittable({
    name: 'catalog.product.created',
    description:
      'A product was created (shown in GET /api/v2/products and delivered as the outbound webhook event product.created): {"product_id":1,"sku":"TSHIRT-M","name":"T-shirt","price":"19.99"}',
    type: productCreated,
    stream: CATALOG_STREAM,
    data: productSnapshot,
  }),
  emittable({
    name: 'catalog.product.updated',
    description: 'A product changed (full snapshot, same fields as catalog.product.created)',
    type: productUpdated,
    stream: CATALOG_STREAM,
    data: productSnapshot,
  }),
  emittable({
    name: 'catalog.product.deleted',
    description: 'A product was deleted: {"product_id":1}',
    type: productDeleted,
    stream: CATALOG_STREAM,
    data: payloadOf(
      z
        .object({ product_id: id, version })
        .strict()
        .transform(({ product_id, version: given }) => ({
          product_id,
          version: versionOrNow(given),
        })),
    ),
  }),
  emittable({
    name: 'catalog.purchase_invoice.created',
    description:
      'A purchase invoice was created: {"purchase_invoice_id":1,"supplier_invoice_number":"INV-1","status":"open","currency":"USD","total":"1250.50","due_date":"2026-03-01"}',
    type: purchaseInvoiceCreated,
    stream: CATALOG_STREAM,
    data: invoiceSnapshot,
  }),
  emittable({
    name: 'catalog.purchase_invoice.updated',
    description:
      'A purchase invoice changed (full snapshot, same fields as catalog.purchase_invoice.created)',
    type: purchaseInvoiceUpdated,
    stream: CATALOG_STREAM,
    data: invoiceSnapshot,
  }),
  emittable({
    name: 'catalog.purchase_invoice.deleted',
    description: 'A purchase invoice was deleted: {"purchase_invoice_id":1}',
    type: purchaseInvoiceDeleted,
    stream: CATALOG_STREAM,
    data: payloadOf(
      z
        .object({ purchase_invoice_id: id, version })
        .strict()
        .transform(({ purchase_invoice_id, version: given }) => ({
          purchase_invoice_id,
          version: versionOrNow(given),
        })),
    ),
  }),
];
