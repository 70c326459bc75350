import type { Logger } from 'pino';
import { isMongoUnreachable } from '../mongo/unreachable.js';
import { AppError, unavailable } from './errors.js';

/**
 * What a handler's failure is answered as, at the gRPC boundary or for one item of a batch: an
 * AppError as itself; MongoDB unreachable (killed, restarting, a connection reset mid-command) as
 * UNAVAILABLE, a transient state the caller may retry (a provider whose push is refused retries
 * it; a write that may have landed is deduplicated by its key); anything else undefined, a fault
 * answered INTERNAL. What was not thrown on purpose is logged here, never sent.
 */
export function boundaryError(
  error: unknown,
  logger: Logger,
  fields: Record<string, unknown>,
): AppError | undefined {
  if (error instanceof AppError) return error;
  if (isMongoUnreachable(error)) {
    logger.warn({ err: error, ...fields }, 'MongoDB unreachable; answered UNAVAILABLE');
    return unavailable('service_unavailable', 'A data store is unreachable; try again shortly.');
  }
  logger.error({ err: error, ...fields }, 'unhandled error in gRPC handler');
  return undefined;
}
