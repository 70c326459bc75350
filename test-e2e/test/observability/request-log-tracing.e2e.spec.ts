import { randomBytes } from 'node:crypto';
import { startOtlpReceiver, waitFor, type OtlpReceiver } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

const KIND = { server: 2, producer: 4, consumer: 5 };
const SUBJECT = 'identity.token.requests_logged';

/**
 * The request log travels in batches of many requests (ADR 0711): a token-authenticated request,
 * traced, is found again as a link on identity's span for the batch that stored it.
 */
describe('a traced request in the request-log batch', () => {
  let receiver: OtlpReceiver;
  let system: RunningSystem;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    system = await startSystem({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  it("reaches identity's consumer span as a link to the gateway's request span", async () => {
    const tenant = await createTenantWithToken(system);
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const response = await tenant.request('GET', '/api/user', undefined, {
      traceparent: `00-${callerTrace}-${callerSpan}-01`,
    });
    expect(response.status).toBe(200);

    const consumer = await waitFor(
      async () => {
        await system.services.identity!.tracing.flush();
        return receiver.spans.find(
          (span) =>
            span.name === `${SUBJECT} process` &&
            span.links.some((link) => link.traceId === callerTrace),
        );
      },
      { what: "identity's span for the batch holding the request", timeoutMs: 30_000 },
    );
    const requestSpan = receiver.spans.find((span) => span.parentSpanId === callerSpan)!;
    expect(requestSpan).toMatchObject({ kind: KIND.server, name: 'GET /api/user' });
    expect(consumer.kind).toBe(KIND.consumer);
    expect(consumer.attributes['messaging.outcome']).toBe('handled');
    expect(consumer.links).toContainEqual({ traceId: callerTrace, spanId: requestSpan.spanId });
    // The batch is a trace of its own: the consumer's parent is the gateway's publish of it,
    // which links to the same request.
    const publish = receiver.spans.find((span) => span.spanId === consumer.parentSpanId)!;
    expect(publish).toMatchObject({ kind: KIND.producer, name: `${SUBJECT} publish` });
    expect(publish.links).toContainEqual({ traceId: callerTrace, spanId: requestSpan.spanId });
  });
});
