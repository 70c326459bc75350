import { status as GrpcStatus } from '@grpc/grpc-js';
import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { AppError } from '@inventory/platform';
import DataLoader from 'dataloader';
import type { UserCache } from '../auth/user-cache.js';
import type { IdentityUserStreams } from './identity-user-streams.js';

/** Identity refuses more in one call (MAX_BATCH_USERS); a bigger turn is split by DataLoader. */
const MAX_BATCH = 500;

/**
 * `GET /api/user` is the endpoint integrations poll to check their token, so it
 * is the gateway's hottest identity read. Requests of one tenant that reach it in
 * the same event-loop turn share one look-up (DataLoader, no cache), sent as one
 * message on the tenant's `StreamUsers` stream: every answer still comes from an
 * identity read issued after its request arrived, but the gRPC cost is paid once
 * per turn, and as a stream message rather than a unary call (docs/decisions/0107).
 *
 * With a `UserCache`, a user loaded once is answered from it until identity's
 * `identity.user.changed` event (or the TTL, or a NATS outage) drops it: the stream is then
 * used only for misses (docs/decisions/0109).
 */
export class CurrentUserLoader {
  private readonly loaders = new Map<string, DataLoader<number, User>>();

  constructor(
    private readonly users: IdentityUserStreams,
    private readonly cache?: UserCache,
  ) {}

  /** The user from the cache, without a promise; undefined: ask `load`. */
  cached(tenantId: string, userId: number): User | undefined {
    return this.cache?.cached(tenantId, userId);
  }

  /** The user from the cache, else from identity (then cached, when there is a cache). */
  load(tenantId: string, userId: number): Promise<User> {
    if (!this.cache) return this.fromIdentity(tenantId, userId);
    return this.cache.get(tenantId, userId, () => this.fromIdentity(tenantId, userId));
  }

  private fromIdentity(tenantId: string, userId: number): Promise<User> {
    let loader = this.loaders.get(tenantId);
    if (!loader) {
      if (this.loaders.size >= 10_000) this.loaders.clear();
      loader = new DataLoader((userIds) => this.fetch(tenantId, userIds), {
        cache: false,
        maxBatchSize: MAX_BATCH,
        // One loop turn, so requests parsed in the same poll phase share the call.
        batchScheduleFn: (dispatch) => setImmediate(dispatch),
      });
      this.loaders.set(tenantId, loader);
    }
    return loader.load(userId);
  }

  private async fetch(tenantId: string, userIds: readonly number[]): Promise<Array<User | Error>> {
    const users = await this.users.lookUp(tenantId, [...userIds]);
    const byId = new Map(users.map((user) => [user.id, user]));
    return userIds.map(
      (id) => byId.get(id) ?? new AppError(GrpcStatus.NOT_FOUND, 'not_found', 'User not found.'),
    );
  }
}
