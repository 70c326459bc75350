import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  currentContext,
  endSpan,
  isTracing,
  SpanKind,
  startSpan,
  type Span,
} from '@inventory/platform';

/**
 * A server span per request when tracing is on: continues the caller's W3C `traceparent`, becomes
 * the request context's span (so the gRPC calls and events of the request are its children and
 * log lines carry its ids), and ends with the status code and the route pattern (never the raw
 * URL: ids and tokens stay out). Registered after the hook that enters the request context.
 */
export function registerHttpTracing(app: FastifyInstance): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  // Callback style: with tracing off (the default) these hooks do nothing, so they cost no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (isTracing()) startServerSpan(request);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) endServerSpan(span, request, reply);
    done();
  });

  function startServerSpan(request: FastifyRequest): void {
    const span = startSpan(request.method, {
      kind: SpanKind.SERVER,
      remote: (key) => {
        const value = request.headers[key];
        return typeof value === 'string' ? value : undefined;
      },
      attributes: { 'http.request.method': request.method },
    });
    if (!span) return;
    spans.set(request, span);
    const context = currentContext();
    if (context) context.span = span;
  }

  function endServerSpan(span: Span, request: FastifyRequest, reply: FastifyReply): void {
    const route = request.routeOptions.url;
    if (route) span.updateName(`${request.method} ${route}`);
    endSpan(span, reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : undefined, {
      'http.response.status_code': reply.statusCode,
      ...(route ? { 'http.route': route } : {}),
    });
  }
}
