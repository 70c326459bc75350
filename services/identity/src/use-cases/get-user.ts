import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError, notFound, TtlCache, validationFailed } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';
import { presentUser } from './present.js';

/** The most users one batched look-up may name. */
export const MAX_BATCH_USERS = 500;

/**
 * The current user's profile, read on every `GET /api/user`. Served from a
 * short cache: the gateway already trusts token records for a few seconds, and
 * a change made through this replica drops the entry at once.
 */
export class GetUser {
  private readonly profiles = new TtlCache<string, User>({ ttlMs: 2_000 });

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

  /** Several profiles at once (the gateway's batched `GET /api/user`); unknown ids are left out. */
  async executeMany(tenantId: string, userIds: number[]): Promise<User[]> {
    if (userIds.length > MAX_BATCH_USERS)
      throw validationFailed([
        { field: 'user_ids', description: `At most ${MAX_BATCH_USERS} users per call.` },
      ]);
    const unique = [...new Set(userIds)];
    const found = await Promise.all(
      unique.map((userId) =>
        this.execute(tenantId, userId).catch((error: unknown) => {
          if (error instanceof AppError && error.code === GrpcStatus.NOT_FOUND) return undefined;
          throw error;
        }),
      ),
    );
    return found.filter((user): user is User => user !== undefined);
  }
}
