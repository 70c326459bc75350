import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { reprocessJobModel, type ReprocessJobDocument } from './reprocess-job.js';

const UNFINISHED = { phase: { $in: ['queueing', 'waiting'] } };

/**
 * Reprocess jobs (ADR 0230). A replica runs a job while it holds the job's lease and renews it
 * each step; a job whose lease ran out (its replica stopped or died) is claimed by the next
 * replica that looks, which carries it on from its position. The claim spans tenants and says so.
 */
export class ReprocessJobRepository extends TenantScopedRepository<ReprocessJobDocument> {
  constructor(connection: Connection) {
    super(reprocessJobModel(connection));
  }

  async create(job: ReprocessJobDocument): Promise<void> {
    await this.insertOne(job);
  }

  find(tenantId: string, instanceId: number, id: string): Promise<ReprocessJobDocument | null> {
    return this.findOne(tenantId, { integration_instance_id: instanceId, id });
  }

  /** One unfinished job no live lease holds, leased to `owner`; null when there is none. */
  async claimAcrossTenants(
    owner: string,
    leaseMs: number,
    now = new Date(),
  ): Promise<ReprocessJobDocument | null> {
    return this.acrossTenants()
      .findOneAndUpdate(
        { ...UNFINISHED, lease_until: { $lte: now } },
        { $set: { lease_owner: owner, lease_until: new Date(now.getTime() + leaseMs) } },
        { new: true, sort: { lease_until: 1 } },
      )
      .lean<ReprocessJobDocument>();
  }

  /**
   * Records a step (position, phase, counts) and renews the lease, only while `owner` holds it;
   * false when the lease was lost (another replica carries the job on).
   */
  async step(
    job: Pick<ReprocessJobDocument, 'tenant_id' | 'id'>,
    owner: string,
    leaseMs: number,
    set: Partial<
      Pick<ReprocessJobDocument, 'after_id' | 'phase' | 'total' | 'queued' | 'done' | 'finished_at'>
    >,
  ): Promise<boolean> {
    const now = new Date();
    const { matched } = await this.updateOne(
      job.tenant_id,
      { id: job.id, lease_owner: owner, ...UNFINISHED },
      {
        $set: {
          ...set,
          lease_until: set.phase === 'completed' ? now : new Date(now.getTime() + leaseMs),
          updated_at: now,
        },
      },
    );
    return matched === 1;
  }

  /** Gives the job's lease up at once (a replica stopping), so the next one carries it on. */
  async release(job: Pick<ReprocessJobDocument, 'tenant_id' | 'id'>, owner: string): Promise<void> {
    await this.updateOne(
      job.tenant_id,
      { id: job.id, lease_owner: owner },
      { $set: { lease_owner: null, lease_until: new Date() } },
    );
  }
}
