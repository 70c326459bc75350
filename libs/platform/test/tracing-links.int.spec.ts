import { randomBytes } from 'node:crypto';
import { startOtlpReceiver, type OtlpReceiver } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endSpan,
  linksTo,
  linkTo,
  sampledTraceparent,
  SpanKind,
  startSpan,
  startTracing,
  type TracingHandle,
} from '../src/index.js';

const traceparent = (sampled: boolean) => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-${sampled ? '01' : '00'}` };
};

describe('links for batches (ADR 0711): linkTo, sampledTraceparent, startSpan({ links })', () => {
  let receiver: OtlpReceiver;
  let tracing: TracingHandle;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // Ratio 0: a new trace is recorded only when something makes it so (a sampled link).
    tracing = startTracing('links-spec', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_TRACES_SAMPLER_ARG: 0,
    });
  });
  afterAll(async () => {
    await tracing?.shutdown();
    await receiver?.stop();
  });

  it('reads a traceparent into a link, and refuses what names no span', () => {
    const sampled = traceparent(true);
    expect(linkTo(sampled.traceparent)?.context).toMatchObject({
      traceId: sampled.traceId,
      spanId: sampled.spanId,
      traceFlags: 1,
      isRemote: true,
    });
    expect(linkTo(undefined)).toBeUndefined();
    expect(linkTo('')).toBeUndefined();
    expect(linkTo('not-a-traceparent')).toBeUndefined();
    expect(linkTo(`00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`)).toBeUndefined();
    const other = traceparent(false);
    expect(
      linksTo([sampled.traceparent, undefined, 'junk', other.traceparent]).map(
        (link) => link.context.spanId,
      ),
    ).toEqual([sampled.spanId, other.spanId]);
  });

  it('gives the traceparent of a sampled span only', () => {
    expect(sampledTraceparent(undefined)).toBeUndefined();
    const parent = traceparent(true);
    const sampled = startSpan('sampled', {
      kind: SpanKind.SERVER,
      remote: (key) => (key === 'traceparent' ? parent.traceparent : undefined),
    });
    expect(sampledTraceparent(sampled)).toBe(
      `00-${parent.traceId}-${sampled!.spanContext().spanId}-01`,
    );
    // A new trace at ratio 0 is not sampled: nothing to carry.
    const unsampled = startSpan('unsampled', { kind: SpanKind.SERVER });
    expect(unsampled).toBeDefined();
    expect(sampledTraceparent(unsampled)).toBeUndefined();
    endSpan(sampled);
    endSpan(unsampled);
  });

  it('exports a span with its links, recorded because one link was sampled', async () => {
    const first = traceparent(true);
    const second = traceparent(false);
    const linked = startSpan('batch publish', {
      kind: SpanKind.PRODUCER,
      links: linksTo([first.traceparent, second.traceparent]),
    });
    const unlinked = startSpan('lonely publish', {
      kind: SpanKind.PRODUCER,
      links: linksTo([traceparent(false).traceparent]),
    });
    endSpan(linked);
    endSpan(unlinked);
    await tracing.flush();

    await expect
      .poll(() => receiver.spans.find((span) => span.name === 'batch publish'), {
        timeout: 15_000,
      })
      .toMatchObject({
        kind: 4,
        parentSpanId: '',
        links: [
          { traceId: first.traceId, spanId: first.spanId },
          { traceId: second.traceId, spanId: second.spanId },
        ],
      });
    // Flushed together: the span whose only link was not sampled was not recorded at ratio 0.
    expect(receiver.spans.map((span) => span.name)).not.toContain('lonely publish');
    expect(receiver.spans.map((span) => span.name)).not.toContain('unsampled');
  });
});
