import { status as GrpcStatus } from '@grpc/grpc-js';
import type { AuthToken } from '@inventory/contracts/identity/v1/identity.js';
import { describeCallError, type Logger } from '@inventory/platform';
import type { BlockList } from 'node:net';
import type { NatsConnection, Subscription } from 'nats';
import { tokenChanged, tokenRevoked } from '@inventory/events';
import { decodeEnvelope } from '@inventory/platform';
import type { IdentityAdapter } from '../adapters/identity.js';
import { buildAllowlist } from './ip-allowlist.js';

export interface CachedToken {
  record: AuthToken;
  allowlist: BlockList | null;
}

/**
 * Token records by id, cached for a short TTL per replica. Identity publishes
 * `identity.token.revoked` / `.changed` before it answers a revoke or edit; every
 * replica drops the entry on that event, so the next request reloads it. A NATS
 * reconnect clears the whole cache, since events may have been missed meanwhile.
 */
export class TokenCache {
  private readonly entries = new Map<number, { value: CachedToken; expires: number }>();
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly identity: IdentityAdapter,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /** Undefined when identity says the token does not exist for this tenant (unknown, revoked, expired). */
  async get(tenantId: string, tokenId: number): Promise<CachedToken | undefined> {
    const now = Date.now();
    const hit = this.entries.get(tokenId);
    if (hit && hit.expires > now)
      return hit.value.record.tenant_id === tenantId ? hit.value : undefined;
    try {
      const { token } = await this.identity.call.getTokenForAuth({ token_id: tokenId });
      const value = {
        record: token!,
        allowlist: token!.ip_allowlist.length > 0 ? buildAllowlist(token!.ip_allowlist) : null,
      };
      if (this.entries.size > 50_000) this.entries.clear();
      this.entries.set(tokenId, { value, expires: now + this.ttlMs });
      return value;
    } catch (error) {
      if (describeCallError(error).code === GrpcStatus.NOT_FOUND) {
        this.entries.delete(tokenId);
        return undefined;
      }
      throw error;
    }
  }

  invalidate(tokenId: number): void {
    this.entries.delete(tokenId);
  }

  clear(): void {
    this.entries.clear();
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
