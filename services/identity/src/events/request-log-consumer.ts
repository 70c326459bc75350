import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import type { ServiceRuntime } from '@inventory/platform';
import type { UseCases } from '../use-cases/index.js';

/**
 * The gateways' request-log batches. Storage is idempotent by each entry's id on
 * its own (unique index), so the generic processed-event bookkeeping is skipped.
 */
export async function consumeRequestLog(
  runtime: ServiceRuntime,
  useCases: UseCases,
): Promise<void> {
  await runtime.consume({
    stream: IDENTITY_STREAM.name,
    durable: 'identity-request-log',
    event: tokenRequestsLogged,
    idempotent: false,
    retryDelayMs: 2_000,
    handle: (event) => useCases.recordTokenRequests.execute(event),
  });
}
