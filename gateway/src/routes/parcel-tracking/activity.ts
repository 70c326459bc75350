import { activitySchemas } from '../activity/schemas.js';
import type { FastifyInstance } from 'fastify';
import type { ActivityAdapter } from '../../adapters/activity.js';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import { ACTIVITY_QUERY } from '../activity/activity-query.js';
import { instanceActivityPage } from '../activity/instance-activity.js';
import { openInstanceListing } from './instance-listing.js';
import { PREFIX } from './instances.js';
import { INSTANCE } from './inputs.js';
import { declareRoutes, handle } from '../../http/routes.js';

export interface ParcelTrackingActivityRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  activity: ActivityAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const INSTANCE_ACTIVITY_ROUTES = declareRoutes({
  activity: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/activity`,
    access: 'any-token',
    // Deferred: an unknown instance is a 404 even when the query is also bad.
    input: { params: INSTANCE, query: ACTIVITY_QUERY, deferErrors: true },
  },
});

/**
 * `GET .../instances/{instance}/activity`: parcel-tracking says whether the
 * tenant has the instance (404 otherwise), then the activity service's page is
 * rendered by `instanceActivityPage` (query rules, envelope: ADR 0301).
 */
export async function parcelTrackingActivityRoutes(
  app: FastifyInstance,
  deps: ParcelTrackingActivityRouteDeps,
): Promise<void> {
  handle(
    app,
    INSTANCE_ACTIVITY_ROUTES.activity,
    { schema: activitySchemas.list },
    async (request, _reply, { params, query, errors }) => {
      const listing = await openInstanceListing(request, params.instance, errors, deps);
      return instanceActivityPage({ activity: deps.activity, query, ...listing });
    },
  );
}
