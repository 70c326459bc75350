import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { row } from '../../http/row-schema.js';

/** Strings the spec types as string, empty when the row has no value for them (ADR 0214). */
const alwaysText = (description: string) => ({ type: 'string', description });
const NO_TRANSITION = 'empty when no transition was recorded (ignored and failed rows)';

/** The specification's "Webhook event row" (webhook-log-page.ts `presentWebhookEvent`). */
export const WEBHOOK_EVENT_ROW = row({
  id: 'integer',
  integration_instance_id: 'integer',
  received_at: 'date-time?',
  event_type: 'string',
  tracking_number: alwaysText('`data.number` of the payload; empty when the body had none'),
  status_from: alwaysText(`the row's delivery status before the update; ${NO_TRANSITION}`),
  status_to: alwaysText(`the row's delivery status after the update; ${NO_TRANSITION}`),
  summary: alwaysText(`\`<status_from> → <status_to>\`; ${NO_TRANSITION}`),
  payload: { description: 'The provider payload as received (JSON), or null' },
  result: 'string',
  error_message: 'string?',
  processing_duration_ms: 'integer',
  created_at: 'date-time?',
  updated_at: 'date-time?',
  // Beyond the specification (ADR 0230): reprocessing from the log.
  attempts: { type: 'integer', description: 'Processing attempts, over every reprocess' },
  reprocess_count: { type: 'integer', description: 'Times the webhook was reprocessed' },
  reprocessing: {
    type: 'boolean',
    description: 'A reprocess waits for its result; result and error_message are the last ones',
  },
});

export const webhookLogSchema = { response: { 200: linksMetaEnvelopeSchema(WEBHOOK_EVENT_ROW) } };
