import { createHealthProbe, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from './test-infra.js';

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
  options: { redis?: boolean; metrics?: string[] } = {},
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
  });
}
