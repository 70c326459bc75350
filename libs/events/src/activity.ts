import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { defineEvent, type NewEvent, type StreamSpec } from '@inventory/platform';

/** The stream that holds every activity event; consumers and producers both ensure it. */
export const ACTIVITY_STREAM: StreamSpec = { name: 'ACTIVITY', subjects: ['activity.>'] };

/**
 * `activity.recorded`: one row for the activity log. Producers publish it through their outbox:
 * `runtime.outbox.withEvents([{ type: activityRecorded, event: { tenantId, payload } }], change)`.
 */
export const activityRecorded = defineEvent('activity.recorded', ActivityRecorded);

export {
  ACTIVITY_EVENTS,
  INTEGRATION_INSTANCE_SUBJECT,
  PERSONAL_ACCESS_TOKEN_SUBJECT,
  TOKEN_ACTIVITY_EVENTS,
  type ActivityEventName,
  type TokenActivityEventName,
} from './activity-events.js';

export type { ActivityRecorded };

/** What a producer knows about an activity; the helper below turns it into an outbox entry. */
export interface ActivityInput {
  tenantId: string;
  event: string;
  description: string;
  /** The subject, e.g. `{ type: INTEGRATION_INSTANCE_SUBJECT, id: instance.id }`; omit when none. */
  subject?: { type: string; id: number };
  /** The acting user's id; omit for system events. */
  causerId?: string;
  /** Any JSON-serialisable object; stored as the row's `properties`. */
  properties?: Record<string, unknown>;
  /** The integration instance the row belongs to when it is not the subject. */
  integrationInstanceId?: number;
  /** Stable event id when the producer must dedupe (e.g. derived from a webhook event id). */
  id?: string;
  occurredAt?: Date;
}

/**
 * Builds the outbox entry for one activity row:
 * `runtime.outbox.withEvents([activityEntry({...})], () => change())`.
 */
export function activityEntry(input: ActivityInput): {
  type: typeof activityRecorded;
  event: NewEvent<ActivityRecorded>;
} {
  return {
    type: activityRecorded,
    event: {
      tenantId: input.tenantId,
      ...(input.id === undefined ? {} : { id: input.id }),
      ...(input.occurredAt === undefined ? {} : { occurredAt: input.occurredAt }),
      payload: {
        event: input.event,
        description: input.description,
        subject_type: input.subject?.type ?? '',
        subject_id: input.subject?.id ?? 0,
        causer_id: input.causerId,
        properties_json: JSON.stringify(input.properties ?? {}),
        integration_instance_id: input.integrationInstanceId,
      },
    },
  };
}
