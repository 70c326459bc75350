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
  type AsyncService,
  type GrpcServerHandle,
} from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });

/**
 * A handler whose MongoDB goes away mid-command (killed, restarting: the connection is reset)
 * answers UNAVAILABLE, which callers treat as "retry later" (the gateway: a JSON 503; a
 * provider: push again), not INTERNAL, which the gateway answers 500.
 */
describe('a handler whose MongoDB is unreachable', () => {
  let infra: TestInfra;
  let proxy: TcpProxy;
  let connection: Connection;
  let server: GrpcServerHandle;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, nats: false });
    proxy = await startTcpProxy(infra.mongoUrl);
    connection = await connectMongo(proxy.through(infra.mongoUrl), infra.dbName('unreachable'));
    const Probe = connection.model('Probe', new Schema({ text: String }, { collection: 'probes' }));
    const storeEachText: AsyncService<EchoServiceServer> = {
      async echo(request) {
        await Probe.create({ text: request.text });
        return { text: request.text, request_id: '', tenant_id: '' };
      },
    };
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
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
    await connection?.close();
    await proxy?.close();
    await infra?.stop();
  });

  it('answers UNAVAILABLE when the connection is reset mid-command, then serves again', async () => {
    const echo = createGrpcClient(EchoServiceClient, server.address, { deadlineMs: 20_000 });
    expect((await echo.call.echo({ text: 'before', delay_ms: 0, fail_with_code: 0 })).text).toBe(
      'before',
    );

    proxy.stall();
    const during = echo.call
      .echo({ text: 'during', delay_ms: 0, fail_with_code: 0 })
      .catch((error: unknown) => error);
    await waitFor(() => proxy.held().includes('during'), 'the insert sent to MongoDB');
    proxy.cut();
    proxy.resume();
    const decoded = describeCallError(await during);
    expect(decoded.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(decoded.reason).toBe('service_unavailable');
    expect(decoded.message).toBe('A data store is unreachable; try again shortly.');

    expect((await echo.call.echo({ text: 'after', delay_ms: 0, fail_with_code: 0 })).text).toBe(
      'after',
    );
    echo.close();
  }, 60_000);
});
