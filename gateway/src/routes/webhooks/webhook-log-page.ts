import type { WebhookEvent } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import type { ValuesOf } from '../../http/input-field.js';
import { linksMetaEnvelope, pageMeta } from '../../http/pagination.js';
import { webhookLogRequest, type WEBHOOK_LOG_QUERY } from './webhook-log-query.js';

/**
 * One row as the specification's "Webhook event row": its string fields are strings, empty when
 * the row has no transition or no number (ADR 0214); the service leaves them out then.
 */
export function presentWebhookEvent(event: WebhookEvent) {
  return {
    id: event.id,
    integration_instance_id: event.integration_instance_id,
    received_at: event.received_at?.toISOString() ?? null,
    event_type: event.event_type,
    tracking_number: event.tracking_number,
    status_from: event.status_from ?? '',
    status_to: event.status_to ?? '',
    summary: event.summary ?? '',
    payload: event.payload_json ? (JSON.parse(event.payload_json) as unknown) : null,
    result: event.result,
    error_message: event.error_message ?? null,
    processing_duration_ms: event.processing_duration_ms,
    created_at: event.created_at?.toISOString() ?? null,
    updated_at: event.updated_at?.toISOString() ?? null,
    // Added after the specification's fields (ADR 0230).
    attempts: event.attempts,
    reprocess_count: event.reprocess_count,
    reprocessing: event.reprocessing,
  };
}

export interface WebhookLogInput {
  webhookIngest: WebhookIngestAdapter;
  /** Already checked to exist for the caller's tenant. */
  instanceId: number;
  /** The tenant's disconnected instances, whose rows are listed too (ADR 0215). */
  historyIds?: number[];
  /** The route's declared query, read and checked. */
  query: ValuesOf<typeof WEBHOOK_LOG_QUERY>;
  /** Absolute URL of the endpoint without query (the envelope's `path`). */
  path: string;
  /** The raw query string without `?`, so page URLs keep every filter and sort. */
  rawQuery: string;
}

/** The `GET .../instances/{instance}/webhooks` answer after the instance and query checks. */
export async function webhookLogPage(input: WebhookLogInput) {
  const response = await input.webhookIngest.listWebhookEvents(
    webhookLogRequest(input.query, input.instanceId, input.historyIds),
  );
  const info = response.page_info!;
  const meta = pageMeta(info.current_page, info.per_page, info.total, response.events.length);
  return linksMetaEnvelope(
    response.events.map(presentWebhookEvent),
    meta,
    input.path,
    input.rawQuery,
  );
}
