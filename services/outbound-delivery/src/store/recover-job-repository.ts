import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { recoverJobModel, type RecoverJobDocument } from './recover-job.js';

/** Recover jobs (ADR 0415); the runner's look-up of unfinished ones spans tenants and says so. */
export class RecoverJobRepository extends TenantScopedRepository<RecoverJobDocument> {
  constructor(connection: Connection) {
    super(recoverJobModel(connection));
  }

  async create(job: RecoverJobDocument): Promise<void> {
    await this.insertOne(job);
  }

  find(tenantId: string, subscriptionId: number, id: string): Promise<RecoverJobDocument | null> {
    return this.findOne(tenantId, { subscription_id: subscriptionId, id });
  }

  /** Moves the job's position forward (never back: a repeated step changes nothing). */
  async advance(tenantId: string, id: string, sent: number): Promise<void> {
    await this.updateOne(
      tenantId,
      { id, sent: { $lt: sent } },
      { $set: { sent, updated_at: new Date() } },
    );
  }

  async complete(tenantId: string, id: string): Promise<void> {
    const now = new Date();
    await this.updateOne(
      tenantId,
      { id, status: 'running' },
      { $set: { status: 'completed', finished_at: now, updated_at: now } },
    );
  }

  /** Running jobs of every tenant: what a (re)started replica carries on. */
  runningAcrossTenants(): Promise<RecoverJobDocument[]> {
    return this.acrossTenants().find({ status: 'running' }).lean<RecoverJobDocument[]>();
  }
}
