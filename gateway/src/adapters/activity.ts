import {
  ActivityServiceClient,
  type ListActivitiesRequest,
  type ListActivitiesResponse,
  type ListAlertsRequest,
  type ListAlertsResponse,
  type AlertReader,
  type MarkAlertReadResponse,
  type MarkAllAlertsReadResponse,
} from '@inventory/contracts/activity/v1/activity.js';
import { createGrpcClient, currentContext, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/** The gateway's one door to the activity service. */
export interface ActivityAdapter {
  /** One page of the caller's tenant's activity (tenant from the request context metadata). Throws HttpError on refusal or outage. */
  listActivities(request: ListActivitiesRequest): Promise<ListActivitiesResponse>;
  /** One page of the alerts the reader sees (ADR 0303), newest first, with their unread count. */
  listAlerts(request: ListAlertsRequest): Promise<ListAlertsResponse>;
  /** Marks one alert read; 404 HttpError for an unknown id, another tenant's or another user's. */
  markAlertRead(reader: AlertReader, id: number): Promise<MarkAlertReadResponse>;
  markAllAlertsRead(reader: AlertReader): Promise<MarkAllAlertsReadResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<ActivityServiceClient>;
}

export interface ActivityAdapterOptions {
  /** Per-call deadline (the gateway's GRPC_DEADLINE_MS). */
  deadlineMs?: number;
}

export function createActivityAdapter(
  address: string,
  options: ActivityAdapterOptions = {},
): ActivityAdapter {
  const handle = createGrpcClient(ActivityServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
    // The log is read-only and non-critical: open quickly, retry soon; one breaker per tenant so
    // one tenant's failing reads never open another's (issue #18 item 3, ADR 0710).
    breaker: {
      errorThresholdPercentage: 50,
      volumeThreshold: 5,
      resetTimeoutMs: 5_000,
      partitionBy: () => currentContext()?.tenantId,
    },
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  return {
    handle,
    // Service refusals and outages become the spec's envelopes (422, 503...) here, once.
    listActivities: (request) => asHttp(() => handle.call.listActivities(request)),
    listAlerts: (request) => asHttp(() => handle.call.listAlerts(request)),
    markAlertRead: (reader, id) => asHttp(() => handle.call.markAlertRead({ id, reader })),
    markAllAlertsRead: (reader) => asHttp(() => handle.call.markAllAlertsRead({ reader })),
    close: () => handle.close(),
  };
}
