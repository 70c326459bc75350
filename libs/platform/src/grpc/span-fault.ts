import { status as GrpcStatus } from '@grpc/grpc-js';

/** Codes that mark a server span failed (OpenTelemetry's gRPC conventions); the rest are answers. */
const SERVER_FAULTS = new Set<number>([
  GrpcStatus.UNKNOWN,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.UNIMPLEMENTED,
  GrpcStatus.INTERNAL,
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DATA_LOSS,
]);

/**
 * The error a server span ends with for a call's status code: the code's name when it is the
 * server's fault, undefined when it is an answer (a 404 or a refused input is not a failed span).
 * Unary calls (`wrapService`) and a stream's per-message spans (identity's `StreamUsers`) share it.
 */
export function serverSpanFault(code: number): string | number | undefined {
  return SERVER_FAULTS.has(code) ? (GrpcStatus[code] ?? code) : undefined;
}
