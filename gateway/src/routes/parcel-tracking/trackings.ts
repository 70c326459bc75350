import { trackingSchema, trackingsSchema } from './tracking-schema.js';
import type { FastifyInstance } from 'fastify';
import type { ActivityAdapter } from '../../adapters/activity.js';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { trackingDetail } from './tracking-detail.js';
import { presentTracking } from './present-tracking.js';
import { linksMetaEnvelope, pageMeta } from '../../http/pagination.js';
import { refuseInvalid } from '../../http/route-input.js';
import { pageAddressOf } from './base-url.js';
import { PREFIX } from './instances.js';
import { INSTANCE } from './inputs.js';
import { param } from '../../http/param-fields.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { TRACKINGS_QUERY, trackingsRequest } from './trackings-query.js';

export interface ParcelTrackingTrackingsRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  webhookIngest: Pick<WebhookIngestAdapter, 'listWebhookEvents'>;
  activity: Pick<ActivityAdapter, 'listActivities'>;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const TRACKINGS_ROUTES = declareRoutes({
  trackings: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/trackings`,
    access: 'any-token',
    // Deferred: an unknown instance is a 404 even when the query is also bad.
    input: { params: INSTANCE, query: TRACKINGS_QUERY, deferErrors: true },
  },
  tracking: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/trackings/:tracking`,
    access: 'any-token',
    input: { params: { ...INSTANCE, tracking: param.id('Tracking not found.') } },
  },
});

/**
 * `GET .../instances/{instance}/trackings`: the instance id shape is checked
 * (404), the query parsed (422 naming each bad field), then one ListTrackings
 * call answers the page and the total (404 for another tenant's instance).
 */
export async function parcelTrackingTrackingsRoutes(
  app: FastifyInstance,
  deps: ParcelTrackingTrackingsRouteDeps,
): Promise<void> {
  handle(
    app,
    TRACKINGS_ROUTES.trackings,
    { schema: trackingsSchema },
    async (request, _reply, input) => {
      const id = input.params.instance;
      if (Object.keys(input.errors).length > 0) {
        await deps.parcelTracking.checkInstance(id);
        refuseInvalid(input.errors);
      }
      const listing = trackingsRequest(input.query, id);
      const response = await deps.parcelTracking.listTrackings(listing);
      const { path, rawQuery } = pageAddressOf(request, deps.publicScheme, deps.publicPort);
      const meta = pageMeta(
        listing.page,
        listing.per_page,
        response.total,
        response.trackings.length,
      );
      return linksMetaEnvelope(response.trackings.map(presentTracking), meta, path, rawQuery);
    },
  );

  handle(
    app,
    TRACKINGS_ROUTES.tracking,
    { schema: trackingSchema },
    async (_request, _reply, { params }) => {
      return { data: await trackingDetail(deps, params.instance, params.tracking) };
    },
  );
}
