import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { asTransportFailure } from './transport-failure.js';

const failure = (code: GrpcStatus, details: string): ServiceError =>
  Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });

describe('asTransportFailure (a status grpc-js made up for a lost connection)', () => {
  it.each([
    [GrpcStatus.CANCELLED, 'Call cancelled'],
    [GrpcStatus.INTERNAL, 'Received RST_STREAM with code 0 (Call ended without gRPC status)'],
    [GrpcStatus.INTERNAL, 'Received RST_STREAM with code 2 (Internal server error)'],
    [
      GrpcStatus.INTERNAL,
      'Received RST_STREAM with code 2 triggered by internal client error: write EPIPE',
    ],
  ])('%s %s is UNAVAILABLE (unreachable), keeping what grpc-js said', (code, details) => {
    const mapped = asTransportFailure(failure(code, details));
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
      reason: 'unreachable',
      message: `${details} (connection lost)`,
    });
  });

  it("leaves the server's own statuses alone, INTERNAL included", () => {
    for (const error of [
      failure(GrpcStatus.INTERNAL, 'Internal error'),
      failure(GrpcStatus.UNAVAILABLE, 'Connection dropped'),
      failure(GrpcStatus.NOT_FOUND, 'Record not found.'),
      failure(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'),
    ])
      expect(asTransportFailure(error)).toBe(error);
  });
});
