import { randomUUID } from 'node:crypto';
import { notFound, validationFailed } from '@inventory/platform';
import type { RecoverJobs } from '../workers/recover-jobs.js';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { RecoverJobRepository } from '../store/recover-job-repository.js';
import type { RecoverJobDocument } from '../store/recover-job.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';
import { INACTIVE } from './send-test-ping.js';

/** Most deliveries one recover re-sends (oldest first); a bigger backlog takes several. */
export const RECOVER_MAX_DELIVERIES = 10_000;

/** A job and how the deliveries it sent again stand now. */
export interface RecoverJobView {
  job: RecoverJobDocument;
  succeeded: number;
  failed: number;
  pending: number;
}

/**
 * Recover (ADR 0415): every failed delivery of the subscription created since `since`, sent
 * again by a job paced by the per-tenant cap; and the job's progress.
 */
export class RecoverDeliveries {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly jobs: RecoverJobRepository,
    private readonly runner: Pick<RecoverJobs, 'run'>,
  ) {}

  async start(tenantId: string, subscriptionId: number, since: Date | undefined) {
    if (!since || Number.isNaN(since.getTime()))
      throw validationFailed([{ field: 'since', description: 'The since field is required.' }]);
    const subscription = await this.subscriptions.find(tenantId, subscriptionId);
    if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
    if (!subscription.is_active) throw INACTIVE();
    const now = new Date();
    const job: RecoverJobDocument = {
      id: randomUUID(),
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      since,
      delivery_ids: await this.deliveries.failedIdsSince(
        tenantId,
        subscriptionId,
        since,
        RECOVER_MAX_DELIVERIES,
      ),
      sent: 0,
      status: 'running',
      created_at: now,
      updated_at: now,
      finished_at: null,
    };
    await this.jobs.create(job);
    this.runner.run(job);
    return this.view(tenantId, job);
  }

  async get(tenantId: string, subscriptionId: number, jobId: string): Promise<RecoverJobView> {
    const job = await this.jobs.find(tenantId, subscriptionId, jobId);
    if (!job) throw notFound('Recover job not found.');
    return this.view(tenantId, job);
  }

  private async view(tenantId: string, job: RecoverJobDocument): Promise<RecoverJobView> {
    const sentIds = job.delivery_ids.slice(0, job.sent);
    const counts = await this.deliveries.statusCounts(tenantId, sentIds);
    return {
      job,
      succeeded: counts.get('succeeded') ?? 0,
      failed: counts.get('failed') ?? 0,
      pending: counts.get('pending') ?? 0,
    };
  }
}
