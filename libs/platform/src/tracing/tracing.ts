import {
  isSpanContextValid,
  ROOT_CONTEXT,
  type SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';

export { SpanKind, SpanStatusCode, type Link, type Span } from '@opentelemetry/api';

/** The variables tracing reads (the OpenTelemetry SDK's standard names). */
export interface TracingEnv {
  /** Base URL of an OTLP/HTTP collector; traces go to `<base>/v1/traces`. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Full URL for traces; wins over the base endpoint. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  /** Overrides the part's own name as the `service.name` resource attribute. */
  OTEL_SERVICE_NAME?: string;
  /** `true` turns tracing off even with an endpoint set. */
  OTEL_SDK_DISABLED?: string;
  /**
   * The share of new traces recorded, 0 to 1 (default 1: all). A request that arrives with a
   * `traceparent` follows its caller's decision, so a trace is recorded whole or not at all.
   */
  OTEL_TRACES_SAMPLER_ARG?: string | number;
}

export interface TracingHandle {
  /** Whether spans are recorded and exported in this process. */
  enabled: boolean;
  /** Exports what is buffered (tests read the collector after this). */
  flush(): Promise<void>;
  /** Exports what is buffered and, for the handle that started tracing, stops it. */
  shutdown(): Promise<void>;
}

/**
 * One tracer per process, or none. Without an endpoint nothing is set up: `tracer` stays
 * undefined and every helper below returns before touching the OpenTelemetry API, so tracing
 * that is off costs a variable read per call.
 */
let tracer: Tracer | undefined;
let provider: BasicTracerProvider | undefined;
const propagator = new W3CTraceContextPropagator();

export function tracesEndpoint(env: TracingEnv): string | undefined {
  if (env.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return undefined;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT)
    return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

const noTracing: TracingHandle = {
  enabled: false,
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when an endpoint is configured. A process runs one
 * part in production; when several parts share a process (whole-system tests), the first start
 * wins and the others share it, their handles flushing without stopping it.
 */
export function startTracing(service: string, env: TracingEnv): TracingHandle {
  const url = tracesEndpoint(env);
  if (!url) return noTracing;
  const flush = async () => {
    await provider?.forceFlush();
  };
  if (provider) return { enabled: true, flush, shutdown: flush };
  const ratio = env.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG);
  const started = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || service }),
    sampler: new ParentBasedSampler({
      root: new LinkedOrRatioSampler(new TraceIdRatioBasedSampler(ratio)),
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider = started;
  tracer = started.getTracer('@inventory/platform');
  return {
    enabled: true,
    flush,
    async shutdown() {
      if (provider !== started) return;
      tracer = undefined;
      provider = undefined;
      await started.shutdown();
    },
  };
}

export function isTracing(): boolean {
  return tracer !== undefined;
}

/** A W3C `traceparent` received from a caller, or undefined (none, malformed, or tracing off). */
export type CarrierGetter = (key: string) => string | undefined;

const getter: TextMapGetter<CarrierGetter> = {
  keys: () => ['traceparent', 'tracestate'],
  get: (read, key) => read(key),
};
const setter: TextMapSetter<Record<string, string>> = {
  set: (carrier, key, value) => void (carrier[key] = value),
};

/**
 * Starts a span whose parent is either `parent` (a span of this process) or, when `remote` reads
 * a valid `traceparent`, the caller's span. Undefined when tracing is off.
 */
export function startSpan(
  name: string,
  options: {
    kind: SpanKind;
    parent?: Span;
    remote?: CarrierGetter;
    attributes?: Attributes;
    /** Spans this one belongs with without being their child (a batch's entries; see `linkTo`). */
    links?: Link[];
  },
): Span | undefined {
  if (!tracer) return undefined;
  const parentContext = options.parent
    ? trace.setSpan(ROOT_CONTEXT, options.parent)
    : options.remote
      ? propagator.extract(ROOT_CONTEXT, options.remote, getter)
      : ROOT_CONTEXT;
  return tracer.startSpan(
    name,
    { kind: options.kind, attributes: options.attributes, links: options.links },
    parentContext,
  );
}

/** The W3C headers (`traceparent`, and `tracestate` when there is one) that continue `span`. */
export function traceHeaders(span: Span | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (span) propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, setter);
  return headers;
}

/** Ends a span, marking it failed when `error` is given (the message only: never a payload). */
export function endSpan(span: Span | undefined, error?: unknown, attributes?: Attributes): void {
  if (!span) return;
  if (attributes) span.setAttributes(attributes);
  if (error !== undefined) {
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
  }
  span.end();
}

/**
 * The `traceparent` of a span that is sampled, else undefined: what a record carried inside a
 * batch keeps of its request (55 characters) so the batch's spans can link back to it, and
 * nothing at all for a request that is not traced.
 */
export function sampledTraceparent(span: Span | undefined): string | undefined {
  if (!span || !(span.spanContext().traceFlags & TraceFlags.SAMPLED)) return undefined;
  return traceHeaders(span).traceparent;
}

/** A link to the span a `traceparent` names; undefined when there is none or it is malformed. */
export function linkTo(traceparent: string | undefined): Link | undefined {
  if (!traceparent) return undefined;
  const read: CarrierGetter = (key) => (key === 'traceparent' ? traceparent : undefined);
  const context = trace.getSpanContext(propagator.extract(ROOT_CONTEXT, read, getter));
  return context && isSpanContextValid(context) ? { context } : undefined;
}

/** The links to every valid `traceparent` given, in order (absent and malformed ones skipped). */
export function linksTo(traceparents: Iterable<string | undefined>): Link[] {
  const links: Link[] = [];
  for (const traceparent of traceparents) {
    const link = linkTo(traceparent);
    if (link) links.push(link);
  }
  return links;
}

/**
 * A new trace (no parent) is recorded when any span it links to was, otherwise at the configured
 * ratio: a batch's span is kept whenever one of the requests in it is, so its links are not lost
 * to a coin toss of its own.
 */
class LinkedOrRatioSampler implements Sampler {
  constructor(private readonly ratio: Sampler) {}

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    if (links.some((link) => link.context.traceFlags & TraceFlags.SAMPLED))
      return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return this.ratio.shouldSample(context, traceId, name, kind, attributes, links);
  }

  toString(): string {
    return `LinkedOrRatioSampler{${this.ratio.toString()}}`;
  }
}
