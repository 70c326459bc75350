import { status as GrpcStatus } from '@grpc/grpc-js';
import { EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import { startTcpProxy, waitFor, type TcpProxy } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrpcClient,
  createLogger,
  describeCallError,
  startGrpcServer,
  type GrpcClientHandle,
  type GrpcServerHandle,
} from '../src/index.js';
import { echoRegistration } from './fixtures/echo-service.js';

const logger = createLogger({ service: 'test', level: 'silent' });

/**
 * ADR 0744: a frozen service (SIGSTOP: its sockets stay open, nothing answers) held a caller's
 * calls until HTTP/2 keepalive gave up (2 to 3 s at the gateway). With `watchPeer`, the client's
 * pings of the server's grpc.health.v1 go unanswered and, after `stallMs`, the call in flight is
 * cancelled and answered UNAVAILABLE, and new calls are refused at once until a ping is answered.
 * The calls here have a 120 s deadline and no keepalive: only the watch can answer them in time.
 */
describe('a client watching its peer', () => {
  let server: GrpcServerHandle;
  let proxy: TcpProxy;
  let echo: GrpcClientHandle<EchoServiceClient>;

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
    const [host, port] = server.address.split(':');
    proxy = await startTcpProxy({ host: host!, port: Number(port) });
    echo = createGrpcClient(EchoServiceClient, proxy.address, {
      deadlineMs: 120_000,
      watchPeer: { pingEveryMs: 50, stallMs: 300 },
    });
  });
  afterAll(async () => {
    echo?.close();
    await proxy?.close();
    await server?.stop(1_000);
  });

  const send = (text: string) =>
    echo.call.echo({ text, delay_ms: 0, fail_with_code: 0 }).catch((error: unknown) => error);

  it('answers the call in flight and the next ones UNAVAILABLE while the server is frozen, then serves again', async () => {
    expect(await send('before')).toMatchObject({ text: 'before' });
    await waitFor(() => !echo.peer!.stalled(), 'the first ping answered');

    proxy.stall();
    const during = describeCallError(await send('during'));
    expect(echo.peer!.stalled()).toBe(true);
    expect(during.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(during.reason).toBe('unreachable');
    expect(during.message).toBe('inventory.testing.v1.EchoService is not answering');

    // Refused before it is sent: nothing more queues behind the frozen server.
    const next = describeCallError(await send('next'));
    expect(next.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(proxy.held().includes('next')).toBe(false);

    proxy.resume();
    await waitFor(() => !echo.peer!.stalled(), 'the server answers its pings again');
    expect(await send('after')).toMatchObject({ text: 'after' });
  }, 60_000);

  it('does not take a slow handler for a frozen server', async () => {
    // The handler takes 1 s, more than three times `stallMs`; the server still answers pings.
    const slow = await echo.call.echo({ text: 'slow', delay_ms: 1_000, fail_with_code: 0 });
    expect(slow.text).toBe('slow');
    expect(echo.peer!.stalled()).toBe(false);
  }, 60_000);
});
