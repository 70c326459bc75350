import type { AuthToken } from '@inventory/contracts/identity/v1/identity.js';
import { decodeEnvelope, TtlCache, type Logger } from '@inventory/platform';
import type { BlockList } from 'node:net';
import type { NatsConnection, Subscription } from 'nats';
import { tokenChanged, tokenRevoked, userChanged } from '@inventory/events';
import type { IdentityAdapter } from '../adapters/identity.js';
import { buildAllowlist } from './ip-allowlist.js';

export interface CachedToken {
  record: AuthToken;
  allowlist: BlockList | null;
  /** The expiry as the `Authentication-Token-Expiration` header shows it; null when it never expires. */
  expiration: string | null;
}

/**
 * Token records by id, cached for a short TTL per replica. Identity publishes
 * `identity.token.revoked` / `.changed` before it answers a revoke or edit; every
 * replica drops the entry on that event, so the next request reloads it. A NATS
 * reconnect clears the whole cache, since events may have been missed meanwhile.
 *
 * Requests that miss together share one load (otherwise every request arriving
 * while an expired entry reloads would call identity too, and under load that
 * stampede feeds itself). A load that an invalidation overtook still answers the
 * requests that were waiting for it, which arrived before the change, but it is
 * not cached, so the next request asks identity again.
 */
export class TokenCache {
  /**
   * Records by token id. Loads under way are shared by `<token id>:<tenant id>`: identity
   * answers for the calling tenant only, so a request on another tenant's host must neither
   * share nor spoil the load of the token's own tenant. "Not found" is not kept.
   */
  private readonly entries: TtlCache<number, CachedToken | undefined>;
  private subscriptions: Subscription[] = [];
  /**
   * Token ids loaded per `<tenant id>:<user id>`: a record carries its user's owner flag and
   * permissions, so `identity.user.changed` drops the user's tokens. Ids of tokens since dropped
   * stay until the user changes or the map is cleared; dropping them then costs nothing.
   */
  private readonly tokensByUser = new Map<string, Set<number>>();

  constructor(
    private readonly identity: IdentityAdapter,
    ttlMs: number,
    private readonly logger: Logger,
  ) {
    this.entries = new TtlCache({ ttlMs: (value) => (value ? ttlMs : 0), maxEntries: 50_000 });
  }

  /** The cached record of the token for this tenant, without a promise; undefined: ask `get`. */
  cached(tenantId: string, tokenId: number): CachedToken | undefined {
    const value = this.entries.peek(tokenId)?.value;
    return value?.record.tenant_id === tenantId ? value : undefined;
  }

  /** Undefined when identity says the token does not exist for this tenant (unknown, revoked, expired). */
  async get(tenantId: string, tokenId: number): Promise<CachedToken | undefined> {
    const hit = this.entries.peek(tokenId);
    if (hit) return hit.value?.record.tenant_id === tenantId ? hit.value : undefined;
    const loaded = await this.entries.getOrLoad(
      tokenId,
      () => this.load(tenantId, tokenId),
      `${tokenId}:${tenantId}`,
    );
    return loaded?.record.tenant_id === tenantId ? loaded : undefined;
  }

  private async load(tenantId: string, tokenId: number): Promise<CachedToken | undefined> {
    const token = await this.identity.getTokenForAuth(tokenId);
    if (token) {
      this.indexByUser(token.tenant_id, token.user_id, token.id);
      return {
        record: token,
        allowlist: token.ip_allowlist.length > 0 ? buildAllowlist(token.ip_allowlist) : null,
        expiration: token.expires_at ? token.expires_at.toISOString() : null,
      };
    }
    // Only the token's own tenant learns it is gone; another tenant's miss leaves the entry.
    if (this.entries.peek(tokenId)?.value?.record.tenant_id === tenantId)
      this.entries.deleteEntry(tokenId);
    return undefined;
  }

  invalidate(tokenId: number): void {
    this.entries.deleteEntry(tokenId);
    // A load already under way may carry the old record: it must not be cached, and the next
    // request must not join it.
    const prefix = `${tokenId}:`;
    this.entries.forgetLoadsWhere((key) => String(key).startsWith(prefix));
  }

  /** The user's owner flag or permissions may have changed: every token of the user reloads. */
  invalidateUser(tenantId: string, userId: number): void {
    const key = `${tenantId}:${userId}`;
    for (const tokenId of this.tokensByUser.get(key) ?? []) this.entries.deleteEntry(tokenId);
    this.tokensByUser.delete(key);
    // Which user a load under way is for is known only once it answers: none of the tenant's
    // loads may be cached, nor joined.
    const suffix = `:${tenantId}`;
    this.entries.forgetLoadsWhere((flightKey) => String(flightKey).endsWith(suffix));
  }

  clear(): void {
    this.entries.clear();
    this.tokensByUser.clear();
  }

  private indexByUser(tenantId: string, userId: number, tokenId: number): void {
    const key = `${tenantId}:${userId}`;
    let ids = this.tokensByUser.get(key);
    if (!ids) {
      // Starting over must not leave a cached record its user's change could not find.
      if (this.tokensByUser.size >= 50_000) {
        this.entries.clear();
        this.tokensByUser.clear();
      }
      ids = new Set();
      this.tokensByUser.set(key, ids);
    }
    ids.add(tokenId);
  }

  listen(nats: NatsConnection): void {
    const handle = (subject: string, decode: (bytes: Uint8Array) => { token_id: number }) => {
      const subscription = nats.subscribe(subject, {
        callback: (error, message) => {
          if (error) return;
          try {
            this.invalidate(decode(decodeEnvelope(message.data).payload).token_id);
          } catch (decodeError) {
            this.logger.warn(
              { err: decodeError, subject },
              'undecodable token event; clearing the token cache',
            );
            this.clear();
          }
        },
      });
      this.subscriptions.push(subscription);
    };
    handle(tokenRevoked.subject, (bytes) => tokenRevoked.codec.decode(bytes));
    handle(tokenChanged.subject, (bytes) => tokenChanged.codec.decode(bytes));
    this.subscriptions.push(
      nats.subscribe(userChanged.subject, {
        callback: (error, message) => {
          if (error) return;
          try {
            const envelope = decodeEnvelope(message.data);
            this.invalidateUser(
              envelope.tenant_id,
              userChanged.codec.decode(envelope.payload).user_id,
            );
          } catch (decodeError) {
            this.logger.warn(
              { err: decodeError, subject: userChanged.subject },
              'undecodable user event; clearing the token cache',
            );
            this.clear();
          }
        },
      }),
    );
    void (async () => {
      for await (const status of nats.status()) {
        if (status.type === 'reconnect' || status.type === 'disconnect') this.clear();
      }
    })().catch(() => undefined);
  }

  stop(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.subscriptions = [];
  }
}
