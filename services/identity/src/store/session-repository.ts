import type { Connection } from 'mongoose';
import { TenantScopedRepository } from '@inventory/platform';
import { sessionModel, type SessionDocument } from './session.js';

export class SessionRepository extends TenantScopedRepository<SessionDocument> {
  constructor(connection: Connection) {
    super(sessionModel(connection));
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
