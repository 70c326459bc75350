import { status as GrpcStatus } from '@grpc/grpc-js';
import { EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createLogger,
  describeCallError,
  startGrpcServer,
  type GrpcServerHandle,
} from '../src/index.js';
import { echoRegistration } from './fixtures/echo-service.js';

const logger = createLogger({ service: 'test', level: 'silent' });

describe('circuit breaker around a gRPC client', () => {
  let server: GrpcServerHandle;
  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
  });
  afterAll(() => server.stop(1_000));

  it('opens after repeated failures, fails fast while open, and closes again after a good trial call', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, {
      breaker: { volumeThreshold: 3, errorThresholdPercentage: 50, resetTimeoutMs: 2_000 },
    });
    for (let i = 0; i < 3; i++) {
      const error = await echo.call
        .echo({ text: 'x', delay_ms: 0, fail_with_code: GrpcStatus.UNAVAILABLE })
        .catch((e: unknown) => e);
      expect(describeCallError(error).code).toBe(GrpcStatus.UNAVAILABLE);
    }
    expect(echo.breaker.opened).toBe(true);

    // Failing fast means the call never reaches the server: its echo would succeed.
    const fast = await echo.call
      .echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 })
      .catch((e: unknown) => e);
    expect(describeCallError(fast)).toMatchObject({
      code: GrpcStatus.UNAVAILABLE,
      reason: 'circuit_open',
    });
    expect(echo.breaker.stats.rejects).toBe(1);

    if (!echo.breaker.halfOpen)
      await new Promise((resolve) => echo.breaker.once('halfOpen', resolve));
    await expect(
      echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 }),
    ).resolves.toMatchObject({ text: 'ok' });
    expect(echo.breaker.closed).toBe(true);
    echo.close();
  });

  it('counts only an unreachable, slow or overloaded peer: never a refused request or an error handling one', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, {
      breaker: { volumeThreshold: 2, errorThresholdPercentage: 10 },
    });
    for (const code of [
      GrpcStatus.NOT_FOUND,
      GrpcStatus.INVALID_ARGUMENT,
      GrpcStatus.FAILED_PRECONDITION,
      GrpcStatus.PERMISSION_DENIED,
      GrpcStatus.INTERNAL,
      GrpcStatus.UNKNOWN,
    ])
      for (let i = 0; i < 5; i++) {
        await echo.call
          .echo({ text: 'x', delay_ms: 0, fail_with_code: code })
          .catch(() => undefined);
      }
    expect(echo.breaker.opened).toBe(false);
    echo.close();
  });
});
