import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from 'nats';
import type { Redis } from '@inventory/platform';
import type { ServiceHealthCheck } from '../adapters/service-health.js';

export interface HealthRouteDeps {
  services: ServiceHealthCheck[];
  redis: Redis;
  nats: NatsConnection;
  isShuttingDown: () => boolean;
}

/**
 * Liveness and readiness (every dependency); public and host-independent. Metrics are not
 * here: they are served on METRICS_PORT (see bootstrap), never on the public port.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthRouteDeps): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const checks: Record<string, boolean> = {};
    await Promise.all([
      ...deps.services.map(async (service) => void (checks[service.name] = await service.check())),
      deps.redis
        .ping()
        .then((pong) => void (checks.redis = pong === 'PONG'))
        .catch(() => void (checks.redis = false)),
    ]);
    checks.nats = !deps.nats.isClosed();
    const ready = !deps.isShuttingDown() && Object.values(checks).every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
  });
}
