import type { ServiceRuntime } from '@inventory/platform';
import type { UseCases } from '../use-cases/index.js';
import { IDENTITY_STREAM, TOKEN_REQUEST_LOGGED } from './definitions.js';

/**
 * The gateway's per-request log events. Storage is idempotent by event id on
 * its own (unique index), so the generic processed-event bookkeeping is skipped.
 */
export async function consumeRequestLog(runtime: ServiceRuntime, useCases: UseCases): Promise<void> {
  await runtime.consume({
    stream: IDENTITY_STREAM.name,
    durable: 'identity-request-log',
    event: TOKEN_REQUEST_LOGGED,
    idempotent: false,
    retryDelayMs: 2_000,
    handle: (event) => useCases.recordTokenRequest.execute(event),
  });
}
