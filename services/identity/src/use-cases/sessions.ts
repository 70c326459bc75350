import type { Session } from '@inventory/contracts/identity/v1/identity.js';
import { unauthenticated } from '@inventory/platform';
import { sha256Hex } from '../domain/secrets.js';
import type { UseCaseDeps } from './deps.js';
import { presentUser } from './present.js';

/** The session behind a cookie value, with its user; unauthenticated when unknown or expired. */
export class GetSession {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, sessionToken: string): Promise<Session> {
    if (!sessionToken || sessionToken.length > 200) throw unauthenticated();
    const session = await this.deps.store.sessions.findActive(tenantId, sha256Hex(sessionToken));
    if (!session) throw unauthenticated();
    const user = await this.deps.store.users.findById(tenantId, session.user_id);
    if (!user) throw unauthenticated();
    return {
      user: presentUser(user),
      csrf_hash: session.csrf_hash,
      expires_at: session.expires_at,
    };
  }
}

export class Logout {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, sessionToken: string): Promise<void> {
    await this.deps.store.sessions.delete(tenantId, sha256Hex(sessionToken));
  }
}
