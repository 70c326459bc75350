import type { FastifyInstance } from 'fastify';
import { Histogram, type Registry } from 'prom-client';

/** Request duration by method, route pattern (never the raw URL: ids and tokens stay out) and status. */
export function registerHttpMetrics(app: FastifyInstance, registry: Registry): void {
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
}
