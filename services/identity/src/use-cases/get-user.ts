import { notFound, TtlCache } from '@inventory/platform';
import type { UserDocument, UserRepository } from '../store/users.js';

/**
 * The current user's profile, read on every `GET /api/user`. Served from a
 * short cache: the gateway already trusts token records for a few seconds, and
 * a change made through this replica drops the entry at once.
 */
export class GetUser {
  private readonly profiles = new TtlCache<string, UserDocument>({ ttlMs: 2_000 });

  constructor(private readonly users: UserRepository) {
    users.onChange((tenantId, userId) => this.profiles.delete(`${tenantId}:${userId}`));
  }

  async execute(tenantId: string, userId: number): Promise<UserDocument> {
    return this.profiles.getOrLoad(`${tenantId}:${userId}`, async () => {
      const user = await this.users.findById(tenantId, userId);
      if (!user) throw notFound('User not found.');
      return user;
    });
  }
}
