import { ActivityServiceService } from '@inventory/contracts/activity/v1/activity.js';
import { ACTIVITY_STREAM } from '@inventory/events';
import { ServiceRuntime } from '@inventory/platform';
import { readConfig } from './config.js';
import { consumeActivityRecorded } from './events/activity-recorded-consumer.js';
import { activityService, ACTIVITY_SERVICE_NAME } from './grpc/activity-service.js';
import { ActivityRepository } from './store/activity-repository.js';
import { ListActivities } from './use-cases/list-activities.js';
import { RecordActivity } from './use-cases/record-activity.js';

export const SERVICE_NAME = 'activity';

/** Wires the service and starts serving; the returned runtime's `stop()` drains and closes. */
export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceRuntime> {
  const config = readConfig(env);
  // The stream is declared here too, so the consumer can bind before any producer has started.
  const runtime = await ServiceRuntime.start({
    name: SERVICE_NAME,
    config,
    dbName: config.MONGO_DB,
    streams: [ACTIVITY_STREAM],
  });
  const activities = new ActivityRepository(runtime.mongo);
  const record = new RecordActivity(activities);
  const list = new ListActivities(activities);
  // Serving first builds the indexes (unique source_id) before any event is stored.
  await runtime.serve([
    {
      name: ACTIVITY_SERVICE_NAME,
      definition: ActivityServiceService,
      implementation: activityService({ list, record }),
    },
  ]);
  await consumeActivityRecorded(runtime, record);
  return runtime;
}
