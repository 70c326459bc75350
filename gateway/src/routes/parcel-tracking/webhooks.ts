import { webhookLogSchema } from '../webhooks/webhook-event-schema.js';
import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { WEBHOOK_LOG_QUERY } from '../webhooks/webhook-log-query.js';
import { webhookLogPage } from '../webhooks/webhook-log-page.js';
import { openInstanceListing } from './instance-listing.js';
import { PREFIX } from './instances.js';
import { INSTANCE } from './inputs.js';
import { declareRoutes, handle } from '../../http/routes.js';

export interface ParcelTrackingWebhookLogRouteDeps {
  parcelTracking: ParcelTrackingAdapter;
  webhookIngest: WebhookIngestAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

export const WEBHOOK_LOG_ROUTES = declareRoutes({
  webhookLog: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/webhooks`,
    access: 'any-token',
    // Deferred: an unknown instance is a 404 even when the query is also bad.
    input: { params: INSTANCE, query: WEBHOOK_LOG_QUERY, deferErrors: true },
  },
});

/**
 * `GET .../instances/{instance}/webhooks`: parcel-tracking says whether the
 * tenant has the instance (404 otherwise; rows of a disconnected instance stay
 * in webhook-ingest as history), then webhook-ingest's page is rendered.
 */
export async function parcelTrackingWebhookLogRoutes(
  app: FastifyInstance,
  deps: ParcelTrackingWebhookLogRouteDeps,
): Promise<void> {
  handle(
    app,
    WEBHOOK_LOG_ROUTES.webhookLog,
    { schema: webhookLogSchema },
    async (request, _reply, { params, query, errors }) => {
      const listing = await openInstanceListing(request, params.instance, errors, deps);
      return webhookLogPage({ webhookIngest: deps.webhookIngest, query, ...listing });
    },
  );
}
