import type { ReprocessJob } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import type { FastifyInstance } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import type { WebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { param } from '../../http/param-fields.js';
import { refuseInvalid } from '../../http/route-input.js';
import { dataOf, row } from '../../http/row-schema.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { WEBHOOK_EVENT_ROW } from '../webhooks/webhook-event-schema.js';
import { presentWebhookEvent } from '../webhooks/webhook-log-page.js';
import { WEBHOOK_LOG_QUERY, webhookLogRequest } from '../webhooks/webhook-log-query.js';
import { INSTANCE } from './inputs.js';
import { PREFIX } from './instances.js';

export interface WebhookReprocessRouteDeps {
  parcelTracking: Pick<ParcelTrackingAdapter, 'checkInstance'>;
  webhookIngest: WebhookIngestAdapter;
}

const { page: _page, per_page: _perPage, sort: _sort, ...FILTERS } = WEBHOOK_LOG_QUERY;

export const WEBHOOK_REPROCESS_ROUTES = declareRoutes({
  reprocessWebhook: {
    method: 'POST',
    url: `${PREFIX}/instances/:instance/webhooks/:webhook/reprocess`,
    access: 'any-token',
    successStatus: 202,
    refusesState: true,
    input: {
      params: { ...INSTANCE, webhook: param.id('Webhook event not found.') },
    },
  },
  reprocessWebhooks: {
    method: 'POST',
    url: `${PREFIX}/instances/:instance/webhooks/reprocess`,
    access: 'any-token',
    successStatus: 202,
    idempotent: true,
    // The log's own filters, as its query; an unknown instance is a 404 even with a bad query.
    input: { params: INSTANCE, query: FILTERS, deferErrors: true },
  },
  reprocessJob: {
    method: 'GET',
    url: `${PREFIX}/instances/:instance/webhooks/reprocess-jobs/:job`,
    access: 'any-token',
    input: { params: { ...INSTANCE, job: param.uuid('Reprocess job not found.') } },
  },
});

const tags = ['Parcel tracking'];
const REPROCESS_JOB_ROW = row({
  id: { type: 'string', format: 'uuid' },
  integration_instance_id: 'integer',
  status: { type: 'string', enum: ['running', 'completed'] },
  total: { type: 'integer', description: 'Rows the job reprocesses' },
  queued: { type: 'integer', description: 'Rows put back to the processing job so far' },
  done: { type: 'integer', description: 'Rows whose reprocess has its new result' },
  created_at: 'date-time?',
  finished_at: 'date-time?',
});

export function presentReprocessJob(job: ReprocessJob) {
  return {
    id: job.id,
    integration_instance_id: job.integration_instance_id,
    status: job.status,
    total: job.total,
    queued: job.queued,
    done: job.done,
    created_at: job.created_at?.toISOString() ?? null,
    finished_at: job.finished_at?.toISOString() ?? null,
  };
}

/**
 * Reprocessing from the webhook log (ADR 0230): one failed or ignored row, or every one matching
 * the log's filters as a job whose progress is read by id. parcel-tracking says whether the tenant
 * has the instance (404 otherwise) and which disconnected instances it carries as history.
 */
export async function webhookReprocessRoutes(
  app: FastifyInstance,
  deps: WebhookReprocessRouteDeps,
): Promise<void> {
  handle(
    app,
    WEBHOOK_REPROCESS_ROUTES.reprocessWebhook,
    {
      schema: {
        tags,
        summary:
          'Reprocess one failed or ignored inbound webhook: its stored update is applied again',
        response: { 202: dataOf(WEBHOOK_EVENT_ROW) },
      },
    },
    async (_request, _reply, { params }) => {
      const { historyIds } = await deps.parcelTracking.checkInstance(params.instance);
      const { event } = await deps.webhookIngest.reprocessWebhookEvent({
        integration_instance_id: params.instance,
        id: params.webhook,
        history_instance_ids: historyIds,
      });
      return { data: presentWebhookEvent(event!) };
    },
  );

  handle(
    app,
    WEBHOOK_REPROCESS_ROUTES.reprocessWebhooks,
    {
      schema: {
        tags,
        summary:
          "Reprocess every failed or ignored inbound webhook matching the log's filters, as a job",
        response: { 202: dataOf(REPROCESS_JOB_ROW) },
      },
    },
    async (_request, _reply, { params, query, errors }) => {
      const { historyIds } = await deps.parcelTracking.checkInstance(params.instance);
      refuseInvalid(errors);
      const filters = webhookLogRequest(
        { ...query, sort: [], page: 1, per_page: 1 },
        params.instance,
        historyIds,
      );
      const { job } = await deps.webhookIngest.startReprocessJob({
        integration_instance_id: params.instance,
        history_instance_ids: historyIds,
        event_types: filters.event_types,
        results: filters.results,
        tracking_number: filters.tracking_number,
        received: filters.received,
      });
      return { data: presentReprocessJob(job!) };
    },
  );

  handle(
    app,
    WEBHOOK_REPROCESS_ROUTES.reprocessJob,
    {
      schema: {
        tags,
        summary: 'A webhook reprocess job and its progress',
        response: { 200: dataOf(REPROCESS_JOB_ROW) },
      },
    },
    async (_request, _reply, { params }) => {
      await deps.parcelTracking.checkInstance(params.instance);
      const { job } = await deps.webhookIngest.getReprocessJob({
        integration_instance_id: params.instance,
        id: params.job,
      });
      return { data: presentReprocessJob(job!) };
    },
  );
}
