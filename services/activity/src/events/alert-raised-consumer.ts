import { AppError, type DomainEvent, type ServiceRuntime } from '@inventory/platform';
import { ACTIVITY_STREAM, alertRaised, type AlertRaised } from '@inventory/events';
import type { RecordAlert } from '../use-cases/record-alert.js';

export const ALERT_RECORDER_DURABLE = 'activity-alert-recorder';

/**
 * Stores each `activity.alert.raised` event as one alert per (tenant, key). Idempotent
 * twice over: the runtime skips event ids it has processed, and the alert is unique per
 * key, so a redelivery, a replica's copy or a crash before the ack never doubles one.
 */
export async function consumeAlertRaised(
  runtime: ServiceRuntime,
  recordAlert: RecordAlert,
): Promise<void> {
  await runtime.consume<AlertRaised>({
    stream: ACTIVITY_STREAM.name,
    durable: ALERT_RECORDER_DURABLE,
    event: alertRaised,
    handle: (event) => recordEvent(runtime, recordAlert, event),
  });
}

async function recordEvent(
  runtime: ServiceRuntime,
  recordAlert: RecordAlert,
  event: DomainEvent<AlertRaised>,
): Promise<void> {
  try {
    await recordAlert.execute({
      tenantId: event.tenantId,
      ...event.payload,
      createdAt: event.occurredAt,
    });
  } catch (error) {
    // A malformed alert can never succeed; retrying it would only block the ones behind it.
    if (error instanceof AppError && error.reason === 'validation_failed') {
      runtime.logger.error(
        { event_id: event.id, violations: error.fieldViolations },
        'invalid activity.alert.raised event dropped',
      );
      return;
    }
    throw error;
  }
}
