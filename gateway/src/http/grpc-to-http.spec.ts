import { status } from '@grpc/grpc-js';
import { AppError } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { grpcErrorToHttp } from './grpc-to-http.js';

describe('grpcErrorToHttp: a service that cannot take the request now', () => {
  it('answers 503 with the refusal’s own reason as code, so a caller can tell a full backlog from an outage', () => {
    const answer = grpcErrorToHttp(
      new AppError(status.UNAVAILABLE, 'webhook_backlog_full', 'Too many webhooks are waiting.'),
    );
    expect(answer?.statusCode).toBe(503);
    expect(answer?.body).toEqual({
      message: 'The service is temporarily unavailable. Try again shortly.',
      code: 'webhook_backlog_full',
    });
    expect(answer?.headers).toEqual({ 'retry-after': '5' });
  });

  it('answers an open breaker and a reasonless outage as service_unavailable', () => {
    for (const error of [
      new AppError(status.UNAVAILABLE, 'circuit_open', 'Breaker is open.'),
      new AppError(status.DEADLINE_EXCEEDED, '', 'Deadline exceeded.'),
    ])
      expect(grpcErrorToHttp(error)?.body).toMatchObject({ code: 'service_unavailable' });
  });
});
