import { status as GrpcStatus } from '@grpc/grpc-js';
import {
  EchoServiceClient,
  EchoServiceService,
  type EchoServiceServer,
} from '@inventory/contracts/testing/v1/echo.js';
import {
  startTcpProxy,
  startTestInfra,
  waitFor,
  type TcpProxy,
  type TestInfra,
} from '@inventory/local-infra';
import { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  createGrpcClient,
  createLogger,
  describeCallError,
  startGrpcServer,
  StoreWatch,
  type AsyncService,
  type GrpcServerHandle,
} from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });

/**
 * ADR 0743: a frozen MongoDB (SIGSTOP: the socket stays open, nothing answers) held every call
 * that reached it until the caller's deadline. With the store watch, a call in flight when the
 * store stalls, and every call after it until the store answers again, is answered UNAVAILABLE
 * at once. The calls here have a 120 s deadline, longer than the test's timeout: only the watch
 * can answer them in time.
 */
describe('a service whose MongoDB stalls', () => {
  let infra: TestInfra;
  let proxy: TcpProxy;
  let connection: Connection;
  let watch: StoreWatch;
  let server: GrpcServerHandle;
  const handled: string[] = [];
  /** Per text: whether the handler's signal was aborted once its insert had landed. */
  const abortedAfterWrite = new Map<string, boolean>();

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, nats: false });
    proxy = await startTcpProxy(infra.mongoUrl);
    const url = proxy.through(infra.mongoUrl);
    connection = await connectMongo(url, infra.dbName('stall'));
    watch = await StoreWatch.start(url, { stallMs: 300, pingEveryMs: 50, logger });
    const Probe = connection.model('Probe', new Schema({ text: String }, { collection: 'probes' }));
    const storeEachText: AsyncService<EchoServiceServer> = {
      async echo(request, context) {
        handled.push(request.text);
        await Probe.create({ text: request.text });
        abortedAfterWrite.set(request.text, context.signal.aborted);
        return { text: request.text, request_id: '', tenant_id: '' };
      },
    };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      store: watch,
      services: [
        {
          name: 'inventory.testing.v1.EchoService',
          definition: EchoServiceService,
          implementation: storeEachText,
        },
      ],
    });
  });
  afterAll(async () => {
    await server?.stop(1_000);
    await watch?.stop();
    await connection?.close();
    await proxy?.close();
    await infra?.stop();
  });

  it('answers the call in flight and the next ones UNAVAILABLE, then serves again by itself', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 120_000 });
    const send = (text: string) => echo.call.echo({ text, delay_ms: 0, fail_with_code: 0 });
    expect((await send('before')).text).toBe('before');

    proxy.stall();
    const during = describeCallError(await send('during').catch((error: unknown) => error));
    expect(watch.stalled()).toBe(true);
    expect(during.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(during.reason).toBe('service_unavailable');
    expect(during.message).toBe("The service's database is not answering; retry later.");

    // Refused before its handler runs: nothing more is queued behind the stalled store.
    const next = describeCallError(await send('next').catch((error: unknown) => error));
    expect(next.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(handled).not.toContain('next');

    proxy.resume();
    // The insert of the call answered UNAVAILABLE lands after the thaw; its handler can tell
    // that its caller was already answered (what webhook-ingest marks such a row by).
    await waitFor(() => abortedAfterWrite.has('during'), 'the held insert landed');
    expect(abortedAfterWrite.get('during')).toBe(true);
    await waitFor(() => !watch.stalled(), 'the store answers again');
    expect((await send('after')).text).toBe('after');
    expect(abortedAfterWrite.get('after')).toBe(false);
    echo.close();
  }, 60_000);
});
