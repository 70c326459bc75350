import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import type { ServiceRuntime } from '@inventory/platform';
import type { RecordTokenRequests } from '../use-cases/record-token-requests.js';

/**
 * The gateways' request-log batches. Storage is idempotent by each entry's id on
 * its own (unique index), so the generic processed-event bookkeeping is skipped.
 */
export async function consumeRequestLog(
  runtime: ServiceRuntime,
  recordTokenRequests: RecordTokenRequests,
): Promise<void> {
  await runtime.consume({
    stream: IDENTITY_STREAM.name,
    durable: 'identity-request-log',
    event: tokenRequestsLogged,
    idempotent: false,
    retryDelayMs: 2_000,
    handle: (event) => recordTokenRequests.execute(event),
  });
}
