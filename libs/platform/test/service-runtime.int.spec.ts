import { EchoRequest } from '@inventory/contracts/testing/v1/echo.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceRuntime, defineEvent, type ServiceRuntimeConfig } from '../src/index.js';
import { echoRegistration } from './fixtures/echo-service.js';

describe('ServiceRuntime.run', () => {
  let infra: TestInfra;
  let config: ServiceRuntimeConfig;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    config = {
      LOG_LEVEL: 'silent',
      MONGO_URL: infra.mongoUrl,
      NATS_URL: infra.natsUrl,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: 0,
      METRICS_PORT: 0,
      SHUTDOWN_TIMEOUT_MS: 2_000,
    };
  });
  afterAll(() => infra?.stop());

  it('wires the service and answers the runtime it wired', async () => {
    let wired: ServiceRuntime | undefined;
    const runtime = await ServiceRuntime.run(
      { name: 'run-ok', config, dbName: infra.dbName('run_ok') },
      async (started) => {
        await started.serve([echoRegistration]);
        wired = started;
      },
    );
    try {
      expect(wired).toBe(runtime);
      expect(runtime.grpc?.port).toBeGreaterThan(0);
    } finally {
      await runtime.stop();
    }
    expect(runtime.nats.isClosed()).toBe(true);
  });

  it('keeps processed-event records, collection and unique index, only once a consumer needs them', async () => {
    const runtime = await ServiceRuntime.run(
      {
        name: 'run-processed',
        config,
        dbName: infra.dbName('run_processed'),
        streams: [{ name: 'RUNTIME_PROCESSED', subjects: ['runtime-processed.>'] }],
      },
      (started) => started.serve([echoRegistration]).then(() => undefined),
    );
    const collections = async () =>
      (await runtime.mongo.db!.listCollections().toArray()).map(({ name }) => name);
    try {
      await runtime.consume({
        stream: 'RUNTIME_PROCESSED',
        durable: 'runtime-processed-raw',
        event: defineEvent('runtime-processed.raw', EchoRequest),
        handle: async () => undefined,
        idempotent: false,
      });
      expect(await collections()).not.toContain('processed_events');

      await runtime.consume({
        stream: 'RUNTIME_PROCESSED',
        durable: 'runtime-processed-once',
        event: defineEvent('runtime-processed.once', EchoRequest),
        handle: async () => undefined,
      });
      expect(await collections()).toContain('processed_events');
      const indexes = await runtime.mongo.collection('processed_events').indexes();
      expect(indexes.find((index) => index.unique)?.key).toEqual({ consumer: 1, event_id: 1 });
    } finally {
      await runtime.stop();
    }
  });

  it('stops everything it started when the wiring fails, and rethrows the cause', async () => {
    let started: ServiceRuntime | undefined;
    await expect(
      ServiceRuntime.run(
        { name: 'run-fails', config, dbName: infra.dbName('run_fails') },
        async (runtime) => {
          started = runtime;
          await runtime.serve([echoRegistration]);
          throw new Error('a second connection was refused');
        },
      ),
    ).rejects.toThrow('a second connection was refused');
    expect(started!.nats.isClosed()).toBe(true);
    expect(started!.mongo.readyState).toBe(0);
    // The gRPC port was released too: a client call finds nobody listening.
    const port = started!.grpc!.port;
    const { createConnection } = await import('node:net');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.on('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.on('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});
