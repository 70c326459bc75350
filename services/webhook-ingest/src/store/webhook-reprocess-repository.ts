import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { webhookEventModel, type WebhookEventDocument } from './webhook-event.js';
import { reprocessFields, reprocessFilter, type ListQuery } from './webhook-event-queries.js';

/** The log filter a reprocess takes its rows from. */
export type ReprocessQuery = Omit<ListQuery, 'sort' | 'page' | 'perPage'>;

/** What a reprocess reads of a row before putting it back: its identity and its version. */
type Candidate = Pick<WebhookEventDocument, 'id' | 'attempts' | 'generation' | 'updated_at'>;

/**
 * Reprocessing on the webhook log (ADR 0230): finished rows put back to the processing job as
 * their next generation, one at a time or in a job's steps. Each write is conditional on the row
 * still being finished as it was read (`updated_at`), so two reprocesses racing on one row put it
 * back once, and a job's step repeated after a restart puts back none twice.
 */
export class WebhookReprocessRepository extends TenantScopedRepository<WebhookEventDocument> {
  constructor(connection: Connection) {
    super(webhookEventModel(connection));
  }

  /** A row of the instances (the instance and its history), or null for any other. */
  findInInstances(
    tenantId: string,
    instanceIds: number[],
    id: number,
  ): Promise<WebhookEventDocument | null> {
    return this.findOne(tenantId, { id, integration_instance_id: { $in: instanceIds } });
  }

  /** Puts one row back to processing; false when it changed since it was read. */
  async reprocessOne(
    tenantId: string,
    row: Candidate,
    now = new Date(),
  ): Promise<WebhookEventDocument | null> {
    return this.findOneAndUpdate(
      tenantId,
      { id: row.id, state: 'done', updated_at: row.updated_at },
      { $set: reprocessFields(row, null, now) },
    );
  }

  /** The newest row id the filter matches now (a job never takes rows that come after it). */
  async newestId(tenantId: string, instanceIds: number[], query: ReprocessQuery) {
    const [newest] = await this.findMany(tenantId, reprocessFilter(instanceIds, query), {
      sort: { id: -1 },
      limit: 1,
      projection: { id: 1 },
    });
    return newest?.id ?? 0;
  }

  /** Rows the filter matches up to `upToId`. */
  countMatching(tenantId: string, instanceIds: number[], query: ReprocessQuery, upToId: number) {
    return this.count(tenantId, { ...reprocessFilter(instanceIds, query), id: { $lte: upToId } });
  }

  /**
   * One step of a job: the next `limit` matching rows after `afterId` (up to `upToId`) that the
   * job has not put back yet, each put back marked with the job. Answers the last id looked at
   * (the job's next position), or null when no row is left.
   */
  async reprocessStep(
    tenantId: string,
    job: {
      id: string;
      instanceIds: number[];
      query: ReprocessQuery;
      afterId: number;
      upToId: number;
    },
    limit: number,
    now = new Date(),
  ): Promise<number | null> {
    const rows = await this.findMany(
      tenantId,
      {
        ...reprocessFilter(job.instanceIds, job.query),
        id: { $gt: job.afterId, $lte: job.upToId },
        reprocess_job: { $ne: job.id },
      },
      { sort: { id: 1 }, limit, projection: { id: 1, attempts: 1, generation: 1, updated_at: 1 } },
    );
    if (rows.length === 0) return null;
    await this.updateEach(
      tenantId,
      rows.map((row) => ({
        filter: { id: row.id, state: 'done', updated_at: row.updated_at },
        update: { $set: reprocessFields(row, job.id, now) },
      })),
    );
    return rows[rows.length - 1]!.id;
  }

  /** How many rows a job has put back, and how many of those have their new result. */
  async progress(tenantId: string, jobId: string): Promise<{ queued: number; done: number }> {
    const [queued, done] = await Promise.all([
      this.count(tenantId, { reprocess_job: jobId }),
      this.count(tenantId, { reprocess_job: jobId, state: 'done' }),
    ]);
    return { queued, done };
  }
}
