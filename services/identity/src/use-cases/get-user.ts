import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { notFound } from '@inventory/platform';
import { TtlCache } from '../domain/ttl-cache.js';
import type { UseCaseDeps } from './deps.js';
import { presentUser } from './present.js';

/**
 * The current user's profile, read on every `GET /api/user`. Served from a
 * short cache: the gateway already trusts token records for a few seconds, and
 * a change made through this replica drops the entry at once.
 */
export class GetUser {
  private readonly profiles = new TtlCache<string, User>(2_000);

  constructor(private readonly deps: UseCaseDeps) {
    deps.store.users.onChange((tenantId, userId) => this.profiles.delete(`${tenantId}:${userId}`));
  }

  async execute(tenantId: string, userId: number): Promise<User> {
    return this.profiles.getOrLoad(`${tenantId}:${userId}`, async () => {
      const user = await this.deps.store.users.findById(tenantId, userId);
      if (!user) throw notFound('User not found.');
      return presentUser(user);
    });
  }
}
