import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { decodeEnvelope, TtlCache, type Logger } from '@inventory/platform';
import type { NatsConnection, Subscription } from 'nats';
import { userChanged } from '@inventory/events';

const keyOf = (tenantId: string, userId: number) => `${tenantId}:${userId}`;

/**
 * The users `GET /api/user` answers with, by tenant and id, kept per replica for a short TTL
 * (ADR 0109). Identity publishes `identity.user.changed` before it answers a change; every
 * replica drops the entry on it, so the next request reloads. Only while the NATS connection
 * is up: events sent while it is down are lost, so from a disconnect until the reconnect every
 * request loads from identity (the uncached path), and the reconnect starts from empty.
 *
 * A load that an event overtook still answers the requests waiting for it, which arrived before
 * the change, but it is not kept (`TtlCache`). "Not found" is never kept.
 */
export class UserCache {
  private readonly entries: TtlCache<string, User>;
  private subscription: Subscription | undefined;
  /** Whether events can reach this replica; false from a NATS disconnect to the reconnect. */
  private live = true;

  constructor(
    ttlMs: number,
    private readonly logger: Logger,
    now?: () => number,
  ) {
    this.entries = new TtlCache({ ttlMs, maxEntries: 50_000, now });
  }

  /** The cached user, without a promise; undefined: ask `get`. */
  cached(tenantId: string, userId: number): User | undefined {
    return this.live ? this.entries.peek(keyOf(tenantId, userId))?.value : undefined;
  }

  get(tenantId: string, userId: number, load: () => Promise<User>): Promise<User> {
    if (!this.live) return load();
    return this.entries.getOrLoad(keyOf(tenantId, userId), load);
  }

  invalidate(tenantId: string, userId: number): void {
    this.entries.delete(keyOf(tenantId, userId));
  }

  clear(): void {
    this.entries.clear();
  }

  /** Whether answers may come from the cache now (tests: the outage fallback). */
  get serving(): boolean {
    return this.live;
  }

  listen(nats: NatsConnection): void {
    this.subscription = nats.subscribe(userChanged.subject, {
      callback: (error, message) => {
        if (error) return;
        try {
          const envelope = decodeEnvelope(message.data);
          this.invalidate(envelope.tenant_id, userChanged.codec.decode(envelope.payload).user_id);
        } catch (decodeError) {
          this.logger.warn(
            { err: decodeError, subject: userChanged.subject },
            'undecodable user event; clearing the user cache',
          );
          this.clear();
        }
      },
    });
    void (async () => {
      for await (const status of nats.status()) {
        if (status.type === 'disconnect') this.goDark();
        else if (status.type === 'reconnect') {
          this.clear();
          this.live = true;
        }
      }
      // The connection is closed for good: no event will come any more.
    })().then(
      () => this.goDark(),
      () => this.goDark(),
    );
  }

  private goDark(): void {
    this.live = false;
    this.clear();
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }
}
