import { createHealthProbe, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from './test-infra.js';

export type ServiceBootstrap = (env: NodeJS.ProcessEnv) => Promise<ServiceRuntime>;

/**
 * The test every service carries: its real bootstrap, against real NATS and
 * MongoDB, serves grpc.health.v1 as SERVING and Prometheus metrics, then stops
 * cleanly. `extraEnv` supplies the service's own required variables; `redis`
 * also starts a real redis-server and passes it as REDIS_URL.
 */
export function describeServiceBoot(
  name: string,
  bootstrap: ServiceBootstrap,
  extraEnv: NodeJS.ProcessEnv = {},
  options: { redis?: boolean } = {},
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
      expect(await response.text()).toContain('process_cpu_user_seconds_total');
    });
  });
}
