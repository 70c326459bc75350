import { randomBytes } from 'node:crypto';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@inventory/local-infra';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

const KEY = 'e2e_trace_provider_key';
const KIND = { server: 2, client: 3, producer: 4, consumer: 5 };

/**
 * One request through the gateway, traced: the system runs with OTEL_EXPORTER_OTLP_ENDPOINT
 * pointed at an in-process OTLP/HTTP receiver. (Every part shares this process, so they share one
 * tracer and one `service.name`; spans are told apart by kind, name and parent.)
 */
describe('a traced request: gateway → gRPC → outbox → NATS consumers', () => {
  let receiver: OtlpReceiver;
  let sim: ProviderSimHandle;
  let system: RunningSystem;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    sim = await startProviderSim({ keys: [{ key: KEY }], rateLimitPerSecond: 1000 });
    system = await startSystem({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
      serviceEnv: {
        'parcel-tracking': { PROVIDER_BASE_URL: sim.url, PROVIDER_RATE_PER_SECOND: '1000' },
      },
    });
  });
  afterAll(async () => {
    await system?.stop();
    await sim?.stop();
    await receiver?.stop();
  });

  it("continues the caller's traceparent down to the consumers of the events the request caused", async () => {
    const tenant = await createTenantWithToken(system);
    const callerTrace = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const response = await tenant.request(
      'POST',
      '/api/integrations/parcel-tracking/instances',
      { name: 'Traced', api_key: KEY },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    expect(response.status).toBe(201);

    let spans: ReceivedSpan[] = [];
    const byId = (id: string) => spans.find((span) => span.spanId === id);
    const consumers = () => spans.filter((span) => span.kind === KIND.consumer);
    await expect
      .poll(
        async () => {
          await system.services.identity!.tracing.flush();
          spans = receiver.spans.filter((span) => span.traceId === callerTrace);
          return consumers().map((span) => span.attributes['messaging.consumer.group.name']);
        },
        { timeout: 30_000 },
      )
      // The instance's backfill job, consumed by parcel-tracking's own worker; other parts'
      // consumers of the same events (activity's recorder) are checked below as they come.
      .toContain('parcel-tracking-backfill');

    // The gateway's span is the child of the caller's, named by the route pattern.
    const entry = spans.find((span) => span.parentSpanId === callerSpan)!;
    expect(entry).toMatchObject({
      kind: KIND.server,
      name: 'POST /api/integrations/parcel-tracking/instances',
      attributes: { 'http.response.status_code': 201 },
    });
    // Each consumer's span leads back to the entry, every link present and of the right kind:
    // a consumer's parent is the producer of its event; a producer's is the unit of work that
    // wrote the event (a gRPC handler, or a consumer handling an earlier event); a gRPC handler's
    // is the client span of the same call; a client's is the unit of work that made the call.
    const expectedParentKinds: Record<number, number[]> = {
      [KIND.consumer]: [KIND.producer],
      [KIND.producer]: [KIND.server, KIND.consumer],
      [KIND.server]: [KIND.client],
      [KIND.client]: [KIND.server, KIND.consumer],
    };
    for (const consumer of consumers()) {
      let span = consumer;
      while (span !== entry) {
        const parent = byId(span.parentSpanId);
        expect(parent, `parent of ${span.name}`).toBeDefined();
        expect(expectedParentKinds[span.kind]).toContain(parent!.kind);
        if (span.kind === KIND.server) expect(parent!.name).toBe(span.name);
        span = parent!;
      }
    }
  });
});
