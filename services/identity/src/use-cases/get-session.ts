import { unauthenticated } from '@inventory/platform';
import { sha256Hex } from '../domain/secrets.js';
import type { SessionDocument } from '../store/session.js';
import type { SessionRepository } from '../store/session-repository.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

/** The session behind a cookie value, with its user; unauthenticated when unknown or expired. */
export class GetSession {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
  ) {}

  async execute(
    tenantId: string,
    sessionToken: string,
  ): Promise<{ session: SessionDocument; user: UserDocument }> {
    if (!sessionToken || sessionToken.length > 200) throw unauthenticated();
    const session = await this.sessions.findActive(tenantId, sha256Hex(sessionToken));
    if (!session) throw unauthenticated();
    const user = await this.users.findById(tenantId, session.user_id);
    if (!user) throw unauthenticated();
    return { session, user };
  }
}
