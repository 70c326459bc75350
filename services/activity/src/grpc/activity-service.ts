import { randomUUID } from 'node:crypto';
import type { Activity, ActivityServiceServer } from '@inventory/contracts/activity/v1/activity.js';
import { validationFailed, type AsyncService } from '@inventory/platform';
import { parseProperties } from '../domain/properties.js';
import type { ActivityDocument } from '../store/activity-model.js';
import type { ListActivities } from '../use-cases/list-activities.js';
import type { RecordActivity } from '../use-cases/record-activity.js';

export const ACTIVITY_SERVICE_NAME = 'inventory.activity.v1.ActivityService';

export function toActivityMessage(row: ActivityDocument): Activity {
  return {
    id: row.id,
    event: row.event,
    description: row.description,
    subject_type: row.subject_type ?? '',
    subject_id: row.subject_id ?? 0,
    causer_id: row.causer_id ?? undefined,
    properties_json: JSON.stringify(row.properties ?? {}),
    created_at: row.created_at,
  };
}

/** Thin handlers: the tenant from metadata, decode, one use case, encode. */
export function activityService(useCases: {
  list: ListActivities;
  record: RecordActivity;
}): AsyncService<ActivityServiceServer> {
  return {
    async listActivities(request, context) {
      const { rows, page } = await useCases.list.execute(context.tenant(), request);
      return { activities: rows.map(toActivityMessage), page_info: page };
    },

    async recordActivity(request, context) {
      const tenantId = context.tenant();
      const properties = parseProperties(request.properties_json);
      if (!properties.ok)
        throw validationFailed([{ field: 'properties_json', description: properties.error }]);
      const { row } = await useCases.record.execute({
        tenantId,
        sourceId: request.idempotency_key
          ? `rpc:${request.idempotency_key}`
          : `rpc-once:${randomUUID()}`,
        event: request.event,
        description: request.description,
        subjectType: request.subject_type,
        subjectId: request.subject_id,
        causerId: request.causer_id,
        properties: properties.properties,
        integrationInstanceId: request.integration_instance_id,
        createdAt: request.occurred_at ?? new Date(),
      });
      return { activity: toActivityMessage(row) };
    },
  };
}
