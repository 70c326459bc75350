import { randomUUID } from 'node:crypto';
import type {
  GetReprocessJobRequest,
  StartReprocessJobRequest,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { notFound, validationFailed, type FieldViolation } from '@inventory/platform';
import { NO_LEASE } from '@inventory/platform';
import type { ReprocessJobRepository } from '../store/reprocess-job-repository.js';
import type { ReprocessJobDocument } from '../store/reprocess-job.js';
import { REPROCESSABLE_RESULTS } from '../store/webhook-event-queries.js';
import type { WebhookReprocessRepository } from '../store/webhook-reprocess-repository.js';
import { receivedDays } from '../domain/received-days.js';

/** A job as its endpoint shows it: the progress counted from its rows while it runs. */
export interface ReprocessJobView {
  job: ReprocessJobDocument;
  status: 'running' | 'completed';
  total: number;
  queued: number;
  done: number;
}

/**
 * Starts a job that reprocesses every failed or ignored row of the log's filter (ADR 0230): its
 * rows are those matching now (up to the newest id), walked by `ReprocessJobs` in any replica.
 */
export class StartReprocessJob {
  constructor(
    private readonly deps: {
      jobs: Pick<ReprocessJobRepository, 'create'>;
      rows: Pick<WebhookReprocessRepository, 'newestId' | 'countMatching'>;
      /** A job was created: the runner looks now. */
      kick: () => void;
    },
  ) {}

  async execute(tenantId: string, request: StartReprocessJobRequest): Promise<ReprocessJobView> {
    const violations: FieldViolation[] = [];
    if (
      request.results.some(
        (result) => !(REPROCESSABLE_RESULTS as readonly string[]).includes(result),
      )
    )
      violations.push({
        field: 'filter.result',
        description: `The filter.result field must be one of: ${REPROCESSABLE_RESULTS.join(', ')}.`,
      });
    const { from, to } = receivedDays(request.received, violations);
    if (violations.length > 0) throw validationFailed(violations);
    const instanceIds = [request.integration_instance_id, ...request.history_instance_ids];
    const query = {
      eventTypes: request.event_types,
      results: request.results,
      trackingNumber: request.tracking_number,
      receivedFrom: from,
      receivedTo: to,
    };
    const upToId = await this.deps.rows.newestId(tenantId, instanceIds, query);
    const total =
      upToId === 0 ? 0 : await this.deps.rows.countMatching(tenantId, instanceIds, query, upToId);
    const now = new Date();
    const job: ReprocessJobDocument = {
      id: randomUUID(),
      tenant_id: tenantId,
      integration_instance_id: request.integration_instance_id,
      instance_ids: instanceIds,
      filter: {
        event_types: request.event_types,
        results: request.results,
        tracking_number: request.tracking_number,
        received_from: from ?? null,
        received_to: to ?? null,
      },
      up_to_id: upToId,
      after_id: 0,
      total,
      queued: 0,
      done: 0,
      phase: 'queueing',
      lease_owner: null,
      lease_until: NO_LEASE,
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    await this.deps.jobs.create(job);
    this.deps.kick();
    return { job, status: 'running', total, queued: 0, done: 0 };
  }
}

/** A job's progress; NOT_FOUND for an unknown job or one of another instance or tenant. */
export class GetReprocessJob {
  constructor(
    private readonly deps: {
      jobs: Pick<ReprocessJobRepository, 'find'>;
      rows: Pick<WebhookReprocessRepository, 'progress'>;
    },
  ) {}

  async execute(tenantId: string, request: GetReprocessJobRequest): Promise<ReprocessJobView> {
    const job = await this.deps.jobs.find(tenantId, request.integration_instance_id, request.id);
    if (!job) throw notFound('Reprocess job not found.');
    if (job.phase === 'completed')
      return { job, status: 'completed', total: job.total, queued: job.queued, done: job.done };
    const { queued, done } = await this.deps.rows.progress(tenantId, job.id);
    return {
      job,
      status: 'running',
      // While rows are put back, the count at the start; then the rows put back.
      total: job.phase === 'queueing' ? Math.max(job.total, queued) : job.total,
      queued,
      done,
    };
  }
}
