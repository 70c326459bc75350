import { status as GrpcStatus } from '@grpc/grpc-js';
import { EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import { eventually, startFreezableRelay } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createLogger,
  currentContext,
  describeCallError,
  newRequestId,
  runWithContext,
  startGrpcServer,
  type GrpcServerHandle,
} from '../src/index.js';
import { bucketRotation } from '../src/grpc/bucket-rotation.js';
import { echoRegistration } from './fixtures/echo-service.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const asTenant = <T>(tenantId: string, fn: () => Promise<T>) =>
  runWithContext({ requestId: newRequestId(), tenantId }, fn);

describe('gRPC client bulkheads and frozen peers (issue #18 items 3 and 6)', () => {
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

  it("with partitionBy, one tenant's failures open only that tenant's breaker; closing the client stops every one of them", async () => {
    const rotation = bucketRotation(1_000);
    const rotatingBefore = rotation.listenerCount('rotate');
    const echo = createGrpcClient(EchoServiceClient, server.address, {
      breaker: {
        volumeThreshold: 3,
        errorThresholdPercentage: 50,
        resetTimeoutMs: 60_000,
        partitionBy: () => currentContext()?.tenantId,
      },
    });
    const failing = { text: 'x', delay_ms: 0, fail_with_code: GrpcStatus.UNAVAILABLE };
    for (let i = 0; i < 4; i++)
      await asTenant('noisy', () => echo.call.echo(failing)).catch(() => undefined);
    const noisyAgain = await asTenant('noisy', () =>
      echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 }),
    ).catch((error: unknown) => error);
    expect(describeCallError(noisyAgain)).toMatchObject({ reason: 'circuit_open' });

    await expect(
      asTenant('quiet', () => echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 })),
    ).resolves.toMatchObject({ text: 'ok', tenant_id: 'quiet' });
    // Calls without a tenant use the shared breaker, which the noisy tenant never touched.
    expect(echo.breaker.opened).toBe(false);
    await expect(
      echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 }),
    ).resolves.toMatchObject({ text: 'ok' });
    // The shared breaker and the two tenants' rotate on the process's one timer until the close.
    expect(rotation.listenerCount('rotate')).toBe(rotatingBefore + 3);
    echo.close();
    expect(rotation.listenerCount('rotate')).toBe(rotatingBefore);
  });

  it('with keepalive, the calls in flight to a frozen peer fail UNAVAILABLE long before their deadline', async () => {
    const relay = await startFreezableRelay(server.address);
    const { address } = relay;
    const echo = createGrpcClient(EchoServiceClient, address, {
      deadlineMs: 120_000,
      keepalive: { timeMs: 200, timeoutMs: 500 },
    });
    try {
      await expect(
        echo.call.echo({ text: 'warm', delay_ms: 0, fail_with_code: 0 }),
      ).resolves.toMatchObject({ text: 'warm' });
      // The server holds the call (a slow handler); meanwhile the peer freezes.
      const inFlight = echo.call
        .echo({ text: 'slow', delay_ms: 60_000, fail_with_code: 0 })
        .catch((error: unknown) => error);
      relay.freeze();
      // UNAVAILABLE, not DEADLINE_EXCEEDED: it failed on the missed ping, not at the 120 s deadline.
      expect(describeCallError(await inFlight).code).toBe(GrpcStatus.UNAVAILABLE);
      // The calls that follow fail at once too, rather than queue while the channel reconnects
      // to a peer that accepts TCP and never completes HTTP/2.
      const next = await echo.call
        .echo({ text: 'next', delay_ms: 0, fail_with_code: 0 })
        .catch((error: unknown) => error);
      expect(describeCallError(next)).toMatchObject({
        code: GrpcStatus.UNAVAILABLE,
        reason: 'unreachable',
      });
      // Thawed, the client reconnects by itself and calls succeed again.
      relay.thaw();
      const answer = await eventually(
        () => echo.call.echo({ text: 'back', delay_ms: 0, fail_with_code: 0 }),
        'a call through the thawed peer',
      );
      expect(answer).toMatchObject({ text: 'back' });
    } finally {
      echo.close();
      await relay.close();
    }
  });

  it('with keepalive, a call made after an idle connection froze also fails UNAVAILABLE', async () => {
    const relay = await startFreezableRelay(server.address);
    const { address } = relay;
    const echo = createGrpcClient(EchoServiceClient, address, {
      deadlineMs: 120_000,
      keepalive: { timeMs: 1_000, timeoutMs: 2_000 },
    });
    try {
      await expect(
        echo.call.echo({ text: 'warm', delay_ms: 0, fail_with_code: 0 }),
      ).resolves.toMatchObject({ text: 'warm' });
      // Idle for longer than the keepalive time, then the peer freezes, then a call is made.
      // eslint-disable-next-line no-restricted-syntax -- idle time is the precondition; a slower machine only idles longer
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      relay.freeze();
      const error = await echo.call
        .echo({ text: 'late', delay_ms: 0, fail_with_code: 0 })
        .catch((failure: unknown) => failure);
      expect(describeCallError(error).code).toBe(GrpcStatus.UNAVAILABLE);
    } finally {
      echo.close();
      await relay.close();
    }
  });

  it('a live but slow server keeps its calls under the same keepalive (pings are answered)', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, {
      keepalive: { timeMs: 200, timeoutMs: 500 },
    });
    await expect(
      echo.call.echo({ text: 'slow', delay_ms: 1_500, fail_with_code: 0 }),
    ).resolves.toMatchObject({ text: 'slow' });
    echo.close();
  });
});
