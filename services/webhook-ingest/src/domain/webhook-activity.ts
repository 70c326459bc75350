import { activityEntry } from '@inventory/events';

export interface FinishedWebhook {
  id: number;
  tenant_id: string;
  integration_instance_id: number;
  event_type: string;
  tracking_number: string;
  result: 'processed' | 'failed' | 'ignored';
  status_from: string | null;
  status_to: string | null;
  error_message: string | null;
}

/**
 * The activity row of a finished webhook: `webhook_processed` when it changed a
 * tracking row, `webhook_failed` when it failed; none when ignored (a retry, a
 * repeat, an unknown or stopped number changes nothing worth a log line: the
 * webhook log keeps them). ADR 0222. The id is per attempt: an attempt that
 * lost its lease drops its entry, so only the one that wrote the result publishes.
 */
export function webhookActivity(row: FinishedWebhook, attempt: number, at: Date) {
  if (row.result === 'ignored') return [];
  const what = `${row.event_type || 'Webhook'} for ${row.tracking_number || 'an unreadable body'}`;
  return [
    activityEntry({
      id: `webhook-ingest.webhook-event.${row.id}.${attempt}`,
      tenantId: row.tenant_id,
      event: row.result === 'processed' ? 'webhook_processed' : 'webhook_failed',
      description:
        row.result === 'processed'
          ? `Webhook ${what} processed: ${row.status_from} → ${row.status_to}`
          : `Webhook ${what} failed: ${row.error_message}`,
      integrationInstanceId: row.integration_instance_id,
      properties: {
        integration_instance_id: row.integration_instance_id,
        webhook_event_id: row.id,
        event_type: row.event_type,
        tracking_number: row.tracking_number,
        result: row.result,
        status_from: row.status_from,
        status_to: row.status_to,
        ...(row.error_message ? { error_message: row.error_message } : {}),
      },
      occurredAt: at,
    }),
  ];
}
