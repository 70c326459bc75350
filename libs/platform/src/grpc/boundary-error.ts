import { status as GrpcStatus } from '@grpc/grpc-js';
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

/** One item's refusal in a batch reply (a `BatchItemError` of the protos). */
export interface BatchItemRefusal {
  code: number;
  reason: string;
  message: string;
  violations: Array<{ field: string; description: string }>;
}

/**
 * The one failure rule for an item of a batch call: answered as the boundary answers the single
 * call (`boundaryError`, INTERNAL for a fault), the item alone; the batch's other items keep
 * their answers, which may already be durable.
 */
export function batchItemError(
  error: unknown,
  logger: Logger,
  fields: Record<string, unknown>,
): BatchItemRefusal {
  const answer = boundaryError(error, logger, fields);
  if (!answer)
    return { code: GrpcStatus.INTERNAL, reason: '', message: 'Internal error', violations: [] };
  return {
    code: answer.code,
    reason: answer.reason,
    message: answer.message,
    violations: answer.fieldViolations,
  };
}
