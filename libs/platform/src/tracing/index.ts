export {
  endSpan,
  isTracing,
  SpanKind,
  SpanStatusCode,
  startSpan,
  startTracing,
  traceHeaders,
  tracesEndpoint,
  type CarrierGetter,
  type Span,
  type TracingEnv,
  type TracingHandle,
} from './tracing.js';
