import { trackingSchema, trackingsSchema } from './tracking-schema.js';
import type {
  Checkpoint,
  TrackingRow,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import { linksMetaEnvelope, pageMeta } from '../../http/pagination.js';
import { refuseInvalid } from '../../http/route-input.js';
import { pageAddressOf } from './base-url.js';
import { PREFIX } from './instances.js';
import { INSTANCE } from './inputs.js';
import { param } from '../../http/param-fields.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { TRACKINGS_QUERY, trackingsRequest } from './trackings-query.js';
import { isoOrNull } from '../../http/timestamps.js';

export interface ParcelTrackingTrackingsRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
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

/** Exactly the specification's tracking row fields, in its order. */
export function presentTracking(row: TrackingRow) {
  return {
    id: row.id,
    trackable_type: row.trackable_type,
    trackable_id: row.trackable_id,
    trackable_label: row.trackable_label,
    trackable_url: row.trackable_url,
    tracking_number: row.tracking_number,
    carrier_code: row.carrier_code ?? null,
    carrier_name: row.carrier_name ?? null,
    delivery_status: row.delivery_status,
    delivery_status_label: row.delivery_status_label,
    delivery_status_color: row.delivery_status_color,
    sub_status: row.sub_status ?? null,
    latest_event_description: row.latest_event_description ?? null,
    latest_event_location: row.latest_event_location ?? null,
    last_event_at: isoOrNull(row.last_event_at),
    estimated_delivery_at: isoOrNull(row.estimated_delivery_at),
    delivered_at: isoOrNull(row.delivered_at),
    picked_up_at: isoOrNull(row.picked_up_at),
    registered_at: isoOrNull(row.registered_at),
    registration_error: row.registration_error ?? null,
    stopped_at: isoOrNull(row.stopped_at),
    created_at: isoOrNull(row.created_at),
  };
}

export function presentCheckpoint(checkpoint: Checkpoint) {
  return {
    occurred_at: isoOrNull(checkpoint.occurred_at),
    description: checkpoint.description,
    location: checkpoint.location,
    status: checkpoint.status,
    sub_status: checkpoint.sub_status,
    stage: checkpoint.stage,
  };
}

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
      const found = await deps.parcelTracking.getTracking(params.instance, params.tracking);
      return {
        data: {
          ...presentTracking(found.tracking!),
          checkpoints: found.checkpoints.map(presentCheckpoint),
        },
      };
    },
  );
}
