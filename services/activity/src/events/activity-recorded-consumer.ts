import { AppError, type DomainEvent, type ServiceRuntime } from '@inventory/platform';
import { ACTIVITY_STREAM, activityRecorded, type ActivityRecorded } from '@inventory/events';
import { parseProperties } from '../domain/properties.js';
import type { RecordActivity } from '../use-cases/record-activity.js';

export const ACTIVITY_RECORDER_DURABLE = 'activity-recorder';

/**
 * Stores each `activity.recorded` event as one row. Idempotent twice over: the
 * runtime skips event ids it has processed, and the row is unique per event id,
 * so a crash between the insert and the ack cannot double a row either.
 */
export async function consumeActivityRecorded(
  runtime: ServiceRuntime,
  recordActivity: RecordActivity,
): Promise<void> {
  await runtime.consume<ActivityRecorded>({
    stream: ACTIVITY_STREAM.name,
    durable: ACTIVITY_RECORDER_DURABLE,
    event: activityRecorded,
    handle: (event) => recordEvent(runtime, recordActivity, event),
  });
}

async function recordEvent(
  runtime: ServiceRuntime,
  recordActivity: RecordActivity,
  event: DomainEvent<ActivityRecorded>,
): Promise<void> {
  const { payload } = event;
  const parsed = parseProperties(payload.properties_json);
  if (!parsed.ok) {
    // The fact still happened; keep the row and say loudly that its properties were lost.
    runtime.logger.error(
      { event_id: event.id, error: parsed.error },
      'activity.recorded with unreadable properties; stored with {}',
    );
  }
  try {
    await recordActivity.execute({
      tenantId: event.tenantId,
      sourceId: event.id,
      event: payload.event,
      description: payload.description,
      subjectType: payload.subject_type,
      subjectId: payload.subject_id,
      causerId: payload.causer_id,
      properties: parsed.ok ? parsed.properties : {},
      integrationInstanceId: payload.integration_instance_id,
      createdAt: event.occurredAt,
    });
  } catch (error) {
    // A malformed event can never succeed; retrying it would only block the ones behind it.
    if (error instanceof AppError && error.reason === 'validation_failed') {
      runtime.logger.error(
        { event_id: event.id, violations: error.fieldViolations },
        'invalid activity.recorded event dropped',
      );
      return;
    }
    throw error;
  }
}
