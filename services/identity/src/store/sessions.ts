import { Schema, type Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';

export interface SessionDocument {
  tenant_id: string;
  /** SHA-256 of the cookie value; the value itself is never stored. */
  id_hash: string;
  user_id: number;
  csrf_hash: string;
  expires_at: Date;
  created_at: Date;
}

const schema = new Schema<SessionDocument>(
  {
    tenant_id: { type: String, required: true },
    id_hash: { type: String, required: true, unique: true },
    user_id: { type: Number, required: true, index: true },
    csrf_hash: { type: String, required: true },
    expires_at: { type: Date, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'sessions' },
);
// Expired sessions are refused on read and swept by the TTL monitor.
schema.index({ expires_at: 1 }, { expireAfterSeconds: 0 });

export class SessionRepository extends TenantScopedRepository<SessionDocument> {
  constructor(connection: Connection) {
    super(connection.model<SessionDocument>('Session', schema));
  }

  async create(session: SessionDocument): Promise<void> {
    await this.insertOne(session);
  }

  findActive(tenantId: string, idHash: string, now = new Date()): Promise<SessionDocument | null> {
    return this.findOne(tenantId, { id_hash: idHash, expires_at: { $gt: now } });
  }

  async delete(tenantId: string, idHash: string): Promise<void> {
    await this.deleteOne(tenantId, { id_hash: idHash });
  }
}
