import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import { currentContext, linksTo, type ServiceRuntime } from '@inventory/platform';
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
    handle: (event) => {
      // One batch, many requests: the batch's span (a child of the gateway's publish) links to
      // each traced request in it, so a request's trace leads to where it was stored (ADR 0711).
      const span = currentContext()?.span;
      if (span?.isRecording())
        span.addLinks(linksTo(event.payload.requests.map((entry) => entry.traceparent)));
      return recordTokenRequests.execute(event);
    },
  });
}
