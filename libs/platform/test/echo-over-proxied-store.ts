import {
  EchoServiceClient,
  EchoServiceService,
  type EchoServiceServer,
} from '@inventory/contracts/testing/v1/echo.js';
import { startTcpProxy, startTestInfra, type TcpProxy } from '@inventory/local-infra';
import { Schema } from 'mongoose';
import {
  connectMongo,
  createGrpcClient,
  createLogger,
  startGrpcServer,
  StoreWatch,
  type AsyncService,
  type StoreWatchOptions,
} from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });

/**
 * A gRPC echo service that stores each text in MongoDB before answering, its MongoDB reached
 * through a TCP proxy the test can stall and cut: the one set-up of the store fault tests.
 */
export interface EchoOverProxiedStore {
  proxy: TcpProxy;
  /** Present when started with `watch` options. */
  watch?: StoreWatch;
  /** Texts whose handler ran. */
  handled: string[];
  /** Per text: whether the handler's signal was aborted once its insert had landed. */
  abortedAfterWrite: Map<string, boolean>;
  /** One echo call with the client's deadline; rejects with the call's error. */
  send(text: string): Promise<{ text: string }>;
  stop(): Promise<void>;
}

export async function startEchoOverProxiedStore(options: {
  dbName: string;
  deadlineMs: number;
  watch?: StoreWatchOptions;
}): Promise<EchoOverProxiedStore> {
  const infra = await startTestInfra({ redis: false, nats: false });
  const proxy = await startTcpProxy(infra.mongoUrl);
  const url = proxy.through(infra.mongoUrl);
  const connection = await connectMongo(url, infra.dbName(options.dbName));
  const watch = options.watch
    ? await StoreWatch.start(url, { ...options.watch, logger })
    : undefined;
  const Probe = connection.model('Probe', new Schema({ text: String }, { collection: 'probes' }));
  const handled: string[] = [];
  const abortedAfterWrite = new Map<string, boolean>();
  const storeEachText: AsyncService<EchoServiceServer> = {
    async echo(request, context) {
      handled.push(request.text);
      await Probe.create({ text: request.text });
      abortedAfterWrite.set(request.text, context.signal.aborted);
      return { text: request.text, request_id: '', tenant_id: '' };
    },
  };
  const server = await startGrpcServer({
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
  const echo = createGrpcClient(EchoServiceClient, server.address, {
    deadlineMs: options.deadlineMs,
  });
  return {
    proxy,
    watch,
    handled,
    abortedAfterWrite,
    send: (text) => echo.call.echo({ text, delay_ms: 0, fail_with_code: 0 }),
    async stop() {
      echo.close();
      await server.stop(1_000);
      await watch?.stop();
      await connection.close();
      await proxy.close();
      await infra.stop();
    },
  };
}
