import { status as GrpcStatus } from '@grpc/grpc-js';
import { describeCallError } from '@inventory/platform';
import {
  codeBody,
  forbiddenBody,
  invalidTokenBody,
  notFoundBody,
  validationBody,
} from './envelopes.js';
import { HttpError } from './http-error.js';

/** Groups field violations into the `errors: {field: [messages]}` map. */
export function violationsToErrors(
  violations: Array<{ field: string; description: string }>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const violation of violations) (errors[violation.field] ??= []).push(violation.description);
  return errors;
}

/**
 * The one table from gRPC status to the specification's HTTP answers. Business
 * refusals keep their stable reason as `code`; infrastructure failures are 503.
 */
export function grpcErrorToHttp(error: unknown): HttpError | undefined {
  const decoded = describeCallError(error);
  if (decoded.code === GrpcStatus.OK || decoded.code === undefined) return undefined;
  const reason = decoded.reason ?? '';
  switch (decoded.code) {
    case GrpcStatus.NOT_FOUND:
      return new HttpError(404, notFoundBody(decoded.message));
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.OUT_OF_RANGE:
      if (decoded.fieldViolations.length > 0) {
        return new HttpError(
          422,
          validationBody(violationsToErrors(decoded.fieldViolations), decoded.message),
        );
      }
      return new HttpError(422, codeBody(reason || 'invalid_request', decoded.message));
    case GrpcStatus.PERMISSION_DENIED:
      return new HttpError(403, forbiddenBody(decoded.message));
    case GrpcStatus.UNAUTHENTICATED:
      return new HttpError(401, invalidTokenBody());
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return new HttpError(
        429,
        {
          message: decoded.message,
          retry_after_seconds: Number(decoded.metadata.retry_after_seconds ?? 1),
        },
        { 'retry-after': decoded.metadata.retry_after_seconds ?? '1' },
      );
    case GrpcStatus.UNAVAILABLE:
    case GrpcStatus.DEADLINE_EXCEEDED:
      return new HttpError(
        503,
        codeBody(
          reason === 'circuit_open' ? 'service_unavailable' : reason || 'service_unavailable',
          'The service is temporarily unavailable. Try again shortly.',
        ),
        { 'retry-after': '5' },
      );
    default:
      return undefined;
  }
}

/** Runs a downstream call, turning a gRPC failure into the HTTP answer it maps to. */
export async function asHttp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const mapped = grpcErrorToHttp(error);
    if (!mapped) throw error;
    const reason = describeCallError(error).reason;
    throw reason ? new HttpError(mapped.statusCode, mapped.body, mapped.headers, reason) : mapped;
  }
}

/** As `asHttp`, but a NOT_FOUND answer is `undefined` (a look-up that may find nothing). */
export async function asHttpOrMissing<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (describeCallError(error).code === GrpcStatus.NOT_FOUND) return undefined;
    throw grpcErrorToHttp(error) ?? error;
  }
}
