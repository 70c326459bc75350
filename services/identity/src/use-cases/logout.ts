import { sha256Hex } from '../domain/secrets.js';
import type { SessionRepository } from '../store/session-repository.js';

export class Logout {
  constructor(private readonly sessions: SessionRepository) {}

  async execute(tenantId: string, sessionToken: string): Promise<void> {
    await this.sessions.delete(tenantId, sha256Hex(sessionToken));
  }
}
