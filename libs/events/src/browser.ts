/**
 * What a browser may import: names and tables only. The package's index also defines the bus
 * events, which pull in `@inventory/platform` (NATS, MongoDB) and cannot be bundled for a page.
 */
export {
  ACTIVITY_EVENTS,
  INTEGRATION_INSTANCE_SUBJECT,
  type ActivityEventName,
} from './activity-events.js';
export {
  isWebhookEventName,
  SPECIFICATION_WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENT_CATALOG,
  WEBHOOK_EVENT_NAMES,
  webhookEventScope,
  type WebhookEventName,
} from './webhook-catalog.js';
export {
  RESOURCE_SEQUENCE_FIELD,
  WEBHOOK_EVENT_DATA_SCHEMAS,
  webhookEnvelopeSchema,
  type JsonSchema,
} from './webhook-event-schemas.js';
export {
  WEBHOOK_SCHEMA_DIALECT,
  webhookAsyncApiDocument,
  webhookEventTypes,
  type WebhookEventType,
} from './webhook-event-types.js';
