import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  startOtlpReceiver,
  startTestInfra,
  type OtlpReceiver,
  type TestInfra,
} from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayHandle } from '../bootstrap.js';
import { startLoneGateway } from './test-gateway.test-util.js';

/** The gateway's request span and its log lines, with OTEL_EXPORTER_OTLP_ENDPOINT set (ADR 0711). */
describe('gateway request spans', () => {
  let infra: TestInfra;
  let receiver: OtlpReceiver;
  let gateway: GatewayHandle;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    infra = await startTestInfra({ mongo: false });
    receiver = await startOtlpReceiver();
    gateway = await startLoneGateway(
      infra,
      { LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      {
        logDestination: new Writable({
          write(chunk: Buffer, _encoding, callback) {
            lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
            callback();
          },
        }),
      },
    );
  });
  afterAll(async () => {
    await gateway?.stop();
    await receiver?.stop();
    await infra?.stop();
  });

  it("continues the caller's traceparent, names the span by route, and stamps the request's log lines", async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await fetch(`${gateway.url}/healthz`, {
      headers: { traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(response.status).toBe(200);

    await expect
      .poll(
        async () => {
          await gateway.tracing.flush();
          return receiver.spans.some((span) => span.traceId === traceId);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true);
    const span = receiver.spans.find((candidate) => candidate.traceId === traceId)!;
    expect(span).toMatchObject({
      service: 'gateway',
      name: 'GET /healthz',
      kind: 2,
      parentSpanId: callerSpanId,
      attributes: { 'http.route': '/healthz', 'http.response.status_code': 200 },
    });
    const logged = lines.filter((line) => line.trace_id === traceId);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.every((line) => line.span_id === span.spanId)).toBe(true);
  });

  it('an unknown route is one span too, named by the method only (no raw URL), status 404', async () => {
    const traceId = randomBytes(16).toString('hex');
    const response = await fetch(`${gateway.url}/api/no-such-route/123`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(response.status).toBe(404);
    await expect
      .poll(
        async () => {
          await gateway.tracing.flush();
          return receiver.spans.find((span) => span.traceId === traceId);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toMatchObject({ name: 'GET', attributes: { 'http.response.status_code': 404 } });
  });
});
