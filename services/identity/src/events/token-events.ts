import { randomUUID } from 'node:crypto';
import { tokenChanged, tokenRevoked } from '@inventory/events';
import type { EventPublisher, Logger, Outbox } from '@inventory/platform';

/** Which token changed, and whose. */
export interface TokenRef {
  tenantId: string;
  tokenId: number;
  userId: number;
}

/**
 * `identity.token.revoked` / `identity.token.changed`: what makes every gateway
 * drop its cached token record (ADR 0104). The event is recorded in the outbox
 * together with the change (the durable path), then published straight away with
 * the same id (JetStream stores it once) and the server's ack awaited: by the
 * time the caller gets its answer, every gateway subscribed to the subject has
 * been sent it. Without a publisher (the admin CLI when it has no NATS) the
 * running service's outbox relay publishes it.
 */
export class TokenEvents {
  constructor(
    private readonly outbox: Outbox,
    private readonly publisher: Pick<EventPublisher, 'publish'> | undefined,
    private readonly logger: Logger,
    /** Whether a failed eager publish fails the call (the admin CLI) or only logs (the service). */
    private readonly eagerPublishRequired = false,
  ) {}

  revoked<R>(ref: TokenRef, change: () => Promise<R>): Promise<R> {
    return this.record('revoked', ref, change);
  }

  changed<R>(ref: TokenRef, change: () => Promise<R>): Promise<R> {
    return this.record('changed', ref, change);
  }

  private async record<R>(
    kind: 'revoked' | 'changed',
    ref: TokenRef,
    change: () => Promise<R>,
  ): Promise<R> {
    const type = kind === 'revoked' ? tokenRevoked : tokenChanged;
    const event = {
      id: randomUUID(),
      tenantId: ref.tenantId,
      payload: { token_id: ref.tokenId, user_id: ref.userId },
    };
    const result = await this.outbox.withEvents([{ type, event }], change);
    try {
      await this.publisher?.publish(type, event);
    } catch (error) {
      if (this.eagerPublishRequired) throw new GatewaysNotNotified(error);
      this.logger.warn(
        { err: error, token_id: ref.tokenId },
        'eager token event publish failed; the outbox relay will retry',
      );
    }
    return result;
  }
}

/** The change is made and its event is in the outbox, but the gateways were not told at once. */
export class GatewaysNotNotified extends Error {
  constructor(cause: unknown) {
    super(
      `the change is made, but the gateways could not be told at once (${
        cause instanceof Error ? cause.message : String(cause)
      }); the identity service's outbox relay publishes it`,
      { cause },
    );
    this.name = 'GatewaysNotNotified';
  }
}
