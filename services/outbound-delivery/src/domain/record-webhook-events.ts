import {
  CATALOG_STREAM,
  productCreated,
  type ProductCreated,
  type WebhookEventName,
} from '@inventory/events';
import type { DomainEvent, EventType, StreamSpec } from '@inventory/platform';
import type { WebhookEvent } from './webhook-event.js';

/**
 * A webhook event whose fact is a record event of another stream (ADR 0416): the bus event
 * outbound-delivery consumes, its durable consumer, and how its payload becomes the `data`.
 */
export interface RecordWebhookEvent<T> {
  name: WebhookEventName;
  event: EventType<T>;
  stream: StreamSpec;
  durable: string;
  /** The delivery's `data`; undefined when the record is missing (nothing to deliver). */
  data(payload: T, occurredAt: Date): Record<string, unknown> | undefined;
}

/**
 * `catalog.product.created` → `product.created`: the product as `GET /api/v2/products` shows
 * it, `id` its product id. Dates are the event's `occurred_at` when the record has none, as the
 * catalog's read model takes them.
 */
export function productCreatedData(
  payload: ProductCreated,
  occurredAt: Date,
): Record<string, unknown> | undefined {
  const product = payload.product;
  if (!product) return undefined;
  const createdAt = product.created_at ?? occurredAt;
  return {
    id: product.product_id,
    sku: product.sku,
    name: product.name,
    type: product.type,
    barcode: product.barcode ? product.barcode : null,
    price: product.price,
    created_at: createdAt.toISOString(),
    updated_at: (product.updated_at ?? createdAt).toISOString(),
  };
}

const recordWebhookEvent = <T>(entry: RecordWebhookEvent<T>) =>
  entry as RecordWebhookEvent<unknown>;

/**
 * The one table of webhook events fed by record streams; every other webhook event is a
 * `domain.<name>` event (`DOMAIN_EVENT_NAMES` in @inventory/events).
 */
export const RECORD_WEBHOOK_EVENTS: ReadonlyArray<RecordWebhookEvent<unknown>> = [
  recordWebhookEvent<ProductCreated>({
    name: 'product.created',
    event: productCreated,
    stream: CATALOG_STREAM,
    durable: 'outbound-delivery-product-created',
    data: productCreatedData,
  }),
];

/** A consumed record event as the fan-out delivers it; undefined when it carries no record. */
export function webhookEventOfRecord<T>(
  source: RecordWebhookEvent<T>,
  event: DomainEvent<T>,
): WebhookEvent | undefined {
  const data = source.data(event.payload, event.occurredAt);
  if (!data) return undefined;
  return {
    id: event.id,
    tenantId: event.tenantId,
    occurredAt: event.occurredAt,
    subject: event.subject,
    streamSequence: event.streamSequence,
    name: source.name,
    data,
  };
}
