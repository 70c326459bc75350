import { freePort, startTestInfra, type TestInfra } from '@inventory/local-infra';
import { createHealthProbe, type ServiceRuntime } from '@inventory/platform';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export type ServiceBootstrap = (env: NodeJS.ProcessEnv) => Promise<ServiceRuntime>;

/** Series every service's /metrics serves (libs/platform README: Metrics). */
export const PLATFORM_SERIES = [
  'grpc_server_handled_total',
  'grpc_server_handling_seconds',
  'grpc_client_handled_total',
  'circuit_breaker_state',
  'events_consumed_total',
  'events_redelivered_total',
  'events_consumer_pending',
  'outbox_published_total',
  'outbox_backlog',
  'outbox_relay_lag_seconds',
];

/**
 * The test every service carries: its real bootstrap, against real NATS and
 * MongoDB, serves grpc.health.v1 as SERVING and Prometheus metrics, then stops
 * cleanly. `extraEnv` supplies the service's own required variables; `redis`
 * also starts a real redis-server and passes it as REDIS_URL; `metrics` names the series of the
 * service's own that its README documents, which its /metrics must serve (with the platform's).
 */
export function describeServiceBoot(
  name: string,
  bootstrap: ServiceBootstrap,
  extraEnv: NodeJS.ProcessEnv = {},
  options: {
    redis?: boolean;
    metrics?: string[];
    /** Collections whose rows expire, with their date field and default days (README: Config). */
    retention?: Array<{ collection: string; field: string; days: number }>;
  } = {},
): void {
  describe(`${name} boot`, () => {
    let infra: TestInfra;
    let service: ServiceRuntime;

    beforeAll(async () => {
      infra = await startTestInfra({ redis: options.redis ?? false });
      service = await bootstrap({
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: infra.dbName(name.replace(/-/g, '_')),
        NATS_URL: infra.natsUrl,
        ...(options.redis ? { REDIS_URL: infra.redisUrl } : {}),
        LOG_LEVEL: 'silent',
        ...extraEnv,
      });
    });
    afterAll(async () => {
      await service?.stop();
      await infra?.stop();
    });

    it('serves grpc.health.v1 as SERVING', async () => {
      const probe = createHealthProbe(service.grpc!.address);
      expect(await probe.isServing()).toBe(true);
      probe.close();
    });

    it('serves Prometheus metrics', async () => {
      const response = await fetch(`http://127.0.0.1:${service.metricsServerPort}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      const served = new Set([...text.matchAll(/^# TYPE (\w+) /gm)].map((match) => match[1]));
      for (const series of [...PLATFORM_SERIES, ...(options.metrics ?? [])])
        expect(served, series).toContain(series);
      expect(text).toContain(`service="${name}"`);
    });

    if (options.retention?.length)
      it('keeps each log that grows with traffic for its configured days (a TTL index)', async () => {
        for (const { collection, field, days } of options.retention!) {
          const indexes = await service.mongo.db!.collection(collection).indexes();
          expect(
            indexes.filter((index) => index.expireAfterSeconds !== undefined),
            collection,
          ).toEqual([
            expect.objectContaining({ key: { [field]: 1 }, expireAfterSeconds: days * 24 * 3600 }),
          ]);
        }
      });
  });
}

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * A start that fails part-way (here: its gRPC port is taken, so `serve` fails after the
 * runtime's connections and metrics server are up) rejects and stops what it had started: the
 * metrics port it had bound is free again afterwards.
 */
export function describeFailedStart(
  name: string,
  bootstrap: ServiceBootstrap,
  extraEnv: NodeJS.ProcessEnv = {},
  options: { redis?: boolean } = {},
): void {
  describe(`${name} failed start`, () => {
    let infra: TestInfra;
    beforeAll(async () => {
      infra = await startTestInfra({ redis: options.redis ?? false });
    });
    afterAll(() => infra?.stop());

    it('rejects when its gRPC port is taken, and releases what it had started', async () => {
      const taken = await listenOn(0);
      const address = taken.address();
      const grpcPort = typeof address === 'object' && address ? address.port : 0;
      const metricsPort = await freePort();
      try {
        await expect(
          bootstrap({
            MONGO_URL: infra.mongoUrl,
            MONGO_DB: infra.dbName(`${name.replace(/-/g, '_')}_failed_start`),
            NATS_URL: infra.natsUrl,
            ...(options.redis ? { REDIS_URL: infra.redisUrl } : {}),
            LOG_LEVEL: 'silent',
            GRPC_HOST: '127.0.0.1',
            GRPC_PORT: String(grpcPort),
            METRICS_PORT: String(metricsPort),
            ...extraEnv,
          }),
        ).rejects.toThrow();
      } finally {
        await closeServer(taken);
      }
      await closeServer(await listenOn(metricsPort));
    });
  });
}
