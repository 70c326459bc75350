import { tokenChanged, tokenRevoked } from '@inventory/events';
import { GatewayEvents, type AnyOutboxEntry } from './gateway-events.js';

export { GatewaysNotNotified } from './gateway-events.js';

/** Which token changed, and whose. */
export interface TokenRef {
  tenantId: string;
  tokenId: number;
  userId: number;
}

/**
 * `identity.token.revoked` / `identity.token.changed`: what makes every gateway
 * drop its cached token record (ADR 0104), published before the caller is answered.
 */
export class TokenEvents extends GatewayEvents {
  revoked<R>(
    ref: TokenRef,
    change: () => Promise<R>,
    alongside?: readonly AnyOutboxEntry[],
  ): Promise<R> {
    return this.notify(tokenRevoked, ref.tenantId, payloadOf(ref), change, alongside);
  }

  changed<R>(
    ref: TokenRef,
    change: () => Promise<R>,
    alongside?: readonly AnyOutboxEntry[],
  ): Promise<R> {
    return this.notify(tokenChanged, ref.tenantId, payloadOf(ref), change, alongside);
  }
}

const payloadOf = (ref: TokenRef) => ({ token_id: ref.tokenId, user_id: ref.userId });
