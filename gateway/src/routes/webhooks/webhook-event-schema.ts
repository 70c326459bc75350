import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { row } from '../../http/row-schema.js';

/** The specification's "Webhook event row" (webhook-log-page.ts `presentWebhookEvent`). */
export const WEBHOOK_EVENT_ROW = row({
  id: 'integer',
  integration_instance_id: 'integer',
  received_at: 'date-time?',
  event_type: 'string',
  tracking_number: 'string',
  status_from: 'string?',
  status_to: 'string?',
  summary: 'string?',
  payload: { description: 'The provider payload as received (JSON), or null' },
  result: 'string',
  error_message: 'string?',
  processing_duration_ms: 'integer',
  created_at: 'date-time?',
  updated_at: 'date-time?',
});

export const webhookLogSchema = { response: { 200: linksMetaEnvelopeSchema(WEBHOOK_EVENT_ROW) } };
