import { randomUUID } from 'node:crypto';
import {
  ActivityServiceService,
  type ActivityServiceServer,
  type AlertReader as AlertReaderMessage,
} from '@inventory/contracts/activity/v1/activity.js';
import { validationFailed, type AsyncService, type ServiceRegistration } from '@inventory/platform';
import type { AlertReader } from '../domain/alert.js';
import { parseProperties } from '../domain/properties.js';
import type { ListActivities } from '../use-cases/list-activities.js';
import type { ListAlerts } from '../use-cases/list-alerts.js';
import type { MarkAlertRead } from '../use-cases/mark-alert-read.js';
import type { MarkAllAlertsRead } from '../use-cases/mark-all-alerts-read.js';
import type { RecordActivity } from '../use-cases/record-activity.js';
import { toActivityMessage, toAlertMessage } from './mappers.js';

export const ACTIVITY_SERVICE_NAME = 'inventory.activity.v1.ActivityService';

export interface ActivityUseCases {
  listActivities: ListActivities;
  recordActivity: RecordActivity;
  listAlerts: ListAlerts;
  markAlertRead: MarkAlertRead;
  markAllAlertsRead: MarkAllAlertsRead;
}

/**
 * Who reads alerts. A call that names no reader sees nothing personal (user 0 is nobody) and the
 * inbox only when it says the user holds alerts:view.
 */
const readerOf = (reader: AlertReaderMessage | undefined): AlertReader => ({
  userId: reader?.user_id ?? 0,
  tenantInbox: reader?.tenant_inbox ?? false,
});

/** Thin handlers: the tenant from metadata, decode, one use case, encode. */
export function activityService(
  useCases: ActivityUseCases,
): ServiceRegistration<ActivityServiceServer> {
  const implementation: AsyncService<ActivityServiceServer> = {
    async listActivities(request, context) {
      const { rows, page } = await useCases.listActivities.execute(context.tenant(), request);
      return { activities: rows.map(toActivityMessage), page_info: page };
    },

    async recordActivity(request, context) {
      const tenantId = context.tenant();
      const properties = parseProperties(request.properties_json);
      if (!properties.ok)
        throw validationFailed([{ field: 'properties_json', description: properties.error }]);
      const { row } = await useCases.recordActivity.execute({
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

    async listAlerts(request, context) {
      const { rows, page, unreadCount } = await useCases.listAlerts.execute(context.tenant(), {
        reader: readerOf(request.reader),
        unreadOnly: request.unread_only,
        page: request.page,
      });
      return { alerts: rows.map(toAlertMessage), page_info: page, unread_count: unreadCount };
    },

    async markAlertRead(request, context) {
      return {
        alert: toAlertMessage(
          await useCases.markAlertRead.execute(
            context.tenant(),
            readerOf(request.reader),
            request.id,
          ),
        ),
      };
    },

    async markAllAlertsRead(request, context) {
      return {
        marked: await useCases.markAllAlertsRead.execute(
          context.tenant(),
          readerOf(request.reader),
        ),
      };
    },
  };
  return { name: ACTIVITY_SERVICE_NAME, definition: ActivityServiceService, implementation };
}
