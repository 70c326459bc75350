import { ACTIVITY_STREAM } from '@inventory/events';
import { applyRetention, dropRetiredIndexes, ServiceRuntime } from '@inventory/platform';
import { readConfig } from './config.js';
import { consumeActivityRecorded } from './events/activity-recorded-consumer.js';
import { consumeAlertRaised } from './events/alert-raised-consumer.js';
import { activityService } from './grpc/activity-service.js';
import { ActivityRepository } from './store/activity-repository.js';
import { AlertRepository } from './store/alert-repository.js';
import { ListActivities } from './use-cases/list-activities.js';
import { ListAlerts } from './use-cases/list-alerts.js';
import { MarkAlertRead } from './use-cases/mark-alert-read.js';
import { MarkAllAlertsRead } from './use-cases/mark-all-alerts-read.js';
import { RecordActivity } from './use-cases/record-activity.js';
import { RecordAlert } from './use-cases/record-alert.js';

export const SERVICE_NAME = 'activity';

/**
 * Wires the service and starts serving; the returned runtime's `stop()` drains and closes. A
 * failed wiring step stops what was started (ServiceRuntime.run).
 */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  // The stream is declared here too, so the consumers can bind before any producer has started.
  return ServiceRuntime.run(
    { name: SERVICE_NAME, config, dbName: config.MONGO_DB, streams: [ACTIVITY_STREAM] },
    async (runtime) => {
      const activities = new ActivityRepository(runtime.mongo);
      const alerts = new AlertRepository(runtime.mongo);
      await dropRetiredIndexes(runtime.logger, activities, alerts);
      await applyRetention(
        runtime.logger,
        activities.retention(config.ACTIVITY_RETENTION_DAYS),
        alerts.retention(config.ALERT_RETENTION_DAYS),
      );
      const recordActivity = new RecordActivity(activities);
      const recordAlert = new RecordAlert(alerts);
      // Serving first builds the indexes (unique source_id, unique alert key) before any event is stored.
      await runtime.serve([
        activityService({
          listActivities: new ListActivities(activities),
          recordActivity,
          listAlerts: new ListAlerts(alerts),
          markAlertRead: new MarkAlertRead(alerts),
          markAllAlertsRead: new MarkAllAlertsRead(alerts),
        }),
      ]);
      await consumeActivityRecorded(runtime, recordActivity);
      await consumeAlertRaised(runtime, recordAlert);
    },
  );
}
