import { tokenChanged, tokenRevoked } from '@inventory/events';
import type { UseCaseDeps } from './deps.js';
import { randomUUID } from 'node:crypto';

/**
 * Records the token event in the outbox together with the change (the durable
 * path), then publishes the same event (same id, so JetStream stores it once)
 * straight away and waits for the server's ack: by the time the caller gets its
 * answer, every gateway replica subscribed to the subject has been sent it.
 */
export async function withTokenEvent<R>(
  deps: UseCaseDeps,
  kind: 'revoked' | 'changed',
  event: { tenantId: string; tokenId: number; userId: number },
  change: () => Promise<R>,
): Promise<R> {
  const type = kind === 'revoked' ? tokenRevoked : tokenChanged;
  const newEvent = {
    id: randomUUID(),
    tenantId: event.tenantId,
    payload: { token_id: event.tokenId, user_id: event.userId },
  };
  const result = await deps.outbox.withEvents([{ type, event: newEvent }], change);
  await deps.publisher
    ?.publish(type, newEvent)
    .catch((error: unknown) =>
      deps.logger.warn(
        { err: error, token_id: event.tokenId },
        'eager token event publish failed; the outbox relay will retry',
      ),
    );
  return result;
}
