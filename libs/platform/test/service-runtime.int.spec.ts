import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceRuntime, type ServiceRuntimeConfig } from '../src/index.js';
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
