import { Schema, type Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';

export interface RecoverJobDocument {
  id: string;
  tenant_id: string;
  subscription_id: number;
  since: Date;
  /** The failed deliveries found at the start, oldest first: the job's fixed work list. */
  delivery_ids: string[];
  /** How many of `delivery_ids` have been sent again (the job's position). */
  sent: number;
  status: 'running' | 'completed';
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

const schema = new Schema<RecoverJobDocument>(
  {
    id: { type: String, required: true },
    tenant_id: { type: String, required: true },
    subscription_id: { type: Number, required: true },
    since: { type: Date, required: true },
    delivery_ids: { type: [String], required: true },
    sent: { type: Number, required: true },
    status: { type: String, required: true },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
  },
  { versionKey: false, collection: 'recover_jobs', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ tenant_id: 1, subscription_id: 1, created_at: -1 });
schema.index({ status: 1 }, { partialFilterExpression: { status: 'running' } });

/** Recover jobs (ADR 0415); the runner's look-up of unfinished ones spans tenants and says so. */
export class RecoverJobStore extends TenantScopedRepository<RecoverJobDocument> {
  constructor(connection: Connection) {
    super(connection.model<RecoverJobDocument>('RecoverJob', schema));
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
