import type { FastifyInstance } from 'fastify';
import type { NatsConnection } from 'nats';
import type { Redis } from '@inventory/platform';
import type { ServiceHealthCheck } from '../adapters/service-health.js';
import { declareRoutes, handle } from '../http/routes.js';

export interface HealthRouteDeps {
  services: ServiceHealthCheck[];
  redis: Redis;
  nats: NatsConnection;
  isShuttingDown: () => boolean;
}

/**
 * Parts without which the gateway can answer nothing but errors: every route but health needs the
 * tenant and credentials (identity), the rate limiter (Redis) and the request log (NATS).
 */
const REQUIRED = new Set(['identity', 'redis', 'nats']);

/** Probes: public and host-independent (answer on any Host, before tenancy). */
export const HEALTH_ROUTES = declareRoutes({
  liveness: { method: 'GET', url: '/healthz', access: 'public', tenantless: true },
  readiness: { method: 'GET', url: '/readyz', access: 'public', tenantless: true },
});

/**
 * Liveness and readiness; public and host-independent. Metrics are not here: they are served on
 * METRICS_PORT (see bootstrap), never on the public port.
 *
 * Readiness fails only when a part every request needs is down, or while shutting down. Another
 * service being down makes the gateway `degraded`, still ready: its routes answer the 503
 * envelope while the rest of the API keeps working, instead of every replica leaving the load
 * balancer at once.
 */
export async function healthRoutes(app: FastifyInstance, deps: HealthRouteDeps): Promise<void> {
  // Synchronous: the probe every load balancer polls costs no promise.
  handle(app, HEALTH_ROUTES.liveness, () => ({ status: 'ok' }));

  handle(app, HEALTH_ROUTES.readiness, async (_request, reply) => {
    const checks: Record<string, boolean> = {};
    await Promise.all([
      ...deps.services.map(async (service) => void (checks[service.name] = await service.check())),
      deps.redis
        .ping()
        .then((pong) => void (checks.redis = pong === 'PONG'))
        .catch(() => void (checks.redis = false)),
      natsAnswers(deps.nats).then((answers) => void (checks.nats = answers)),
    ]);
    const down = Object.keys(checks).filter((name) => !checks[name]);
    const ready = !deps.isShuttingDown() && down.every((name) => !REQUIRED.has(name));
    const status = !ready ? 'not_ready' : down.length > 0 ? 'degraded' : 'ready';
    return reply.code(ready ? 200 : 503).send({ status, checks });
  });
}

/**
 * NATS answers a PING within half a second. An open connection is not enough: a frozen server
 * (SIGSTOP) keeps the socket open and answers nothing (issue #18); the probe itself is answered
 * within the second every request gets (issue #41).
 */
async function natsAnswers(nats: NatsConnection, timeoutMs = 500): Promise<boolean> {
  if (nats.isClosed()) return false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)),
  );
  try {
    return await Promise.race([
      nats.rtt().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
