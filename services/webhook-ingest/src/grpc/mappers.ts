import type { WebhookEvent } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import type { WebhookEventDocument } from '../store/webhook-event.js';

const optional = (value: string | null) => (value === null ? undefined : value);

/** A finished row as the log endpoint shows it (internal fields stay here). */
export function toWebhookEvent(row: WebhookEventDocument): WebhookEvent {
  return {
    id: row.id,
    integration_instance_id: row.integration_instance_id,
    received_at: row.received_at,
    event_type: row.event_type,
    tracking_number: row.tracking_number,
    status_from: optional(row.status_from),
    status_to: optional(row.status_to),
    summary: optional(row.summary),
    payload_json: row.payload ? JSON.stringify(row.payload) : '',
    result: row.result ?? 'failed',
    error_message: optional(row.error_message),
    processing_duration_ms: Math.max(0, Math.round(row.processing_duration_ms ?? 0)),
    created_at: row.created_at,
    updated_at: row.updated_at,
    attempts: row.attempts,
    reprocess_count: row.generation ?? 0,
    reprocessing: row.state === 'received',
  };
}
