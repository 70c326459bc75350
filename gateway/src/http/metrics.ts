import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RateLimiter } from '../auth/rate-limiter.js';

/**
 * The gateway's own series (README: Metrics), besides the platform's (gRPC client calls and
 * breakers, in every process's registry): request duration by method, route pattern (never the
 * raw URL: ids and tokens stay out) and status; the rate limiter's decisions.
 */
export function registerHttpMetrics(
  app: FastifyInstance,
  registry: Registry,
  limiter?: Pick<RateLimiter, 'onDecision'>,
): void {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  // Callback style, not async: an async hook allocates a promise per request (and, with the request
  // context's AsyncLocalStorage active, runs Node's promise hooks for it) to do synchronous work.
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  const decisions = new Counter({
    name: 'gateway_rate_limit_decisions_total',
    help: 'Rate-limit decisions: allowed, limited (429), fail_open (Redis unreachable, inside the fail-open window: passed unlimited), unavailable (past the window: 503)',
    labelNames: ['decision'],
    registers: [registry],
  });
  if (limiter) limiter.onDecision = (decision) => decisions.inc({ decision });
}
