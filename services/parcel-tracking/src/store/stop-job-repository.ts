import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { stopJobModel, type StopJobDocument } from './stop-job.js';

export class StopJobRepository extends TenantScopedRepository<StopJobDocument> {
  constructor(connection: Connection) {
    super(stopJobModel(connection));
  }

  static newId(): string {
    return randomUUID();
  }

  async create(
    job: Omit<StopJobDocument, 'attempts' | 'last_error' | 'created_at'>,
  ): Promise<void> {
    await this.insertOne({ ...job, attempts: 0, last_error: null, created_at: new Date() });
  }

  find(tenantId: string, jobId: string): Promise<StopJobDocument | null> {
    return this.findOne(tenantId, { job_id: jobId });
  }

  async progress(
    tenantId: string,
    jobId: string,
    remaining: StopJobDocument['numbers'],
    lastError: string | null,
  ): Promise<void> {
    await this.updateOne(
      tenantId,
      { job_id: jobId },
      { $set: { numbers: remaining, last_error: lastError }, $inc: { attempts: 1 } },
    );
  }

  async delete(tenantId: string, jobId: string): Promise<void> {
    await this.deleteOne(tenantId, { job_id: jobId });
  }
}
