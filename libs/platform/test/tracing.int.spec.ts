import { Writable } from 'node:stream';
import { EchoRequest, EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import {
  startOtlpReceiver,
  startTestInfra,
  type OtlpReceiver,
  type ReceivedSpan,
  type TestInfra,
} from '@inventory/local-infra';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  connectNats,
  contextToMetadata,
  createGrpcClient,
  createLogger,
  defineEvent,
  endSpan,
  ensureStream,
  EventPublisher,
  isTracing,
  Outbox,
  runWithContext,
  SpanKind,
  startConsumer,
  startGrpcServer,
  startOutboxRelay,
  startSpan,
  startTracing,
  type GrpcServerHandle,
} from '../src/index.js';
import { echoRegistration } from './fixtures/echo-service.js';

const KIND = { server: 2, client: 3, producer: 4, consumer: 5 };
const pinged = defineEvent('tracetest.echo.pinged', EchoRequest);

/** Log lines as JSON objects, for the trace ids on them. */
function captureLogs() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: createLogger({ service: 'trace-spec', destination }) };
}

describe('traces across gRPC and NATS (W3C traceparent, OTLP/HTTP export)', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  let mongo: Connection;
  let server: GrpcServerHandle;
  let receiver: OtlpReceiver;
  const { lines, logger } = captureLogs();

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    receiver = await startOtlpReceiver();
    nats = await connectNats(infra.natsUrl, 'tracing-test');
    mongo = await connectMongo(infra.mongoUrl, infra.dbName('tracing'));
    await ensureStream(await nats.jetstreamManager(), {
      name: 'TRACETEST',
      subjects: ['tracetest.>'],
    });
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
  });
  afterAll(async () => {
    await server?.stop(1_000);
    await nats?.close();
    await mongo?.close();
    await receiver?.stop();
    await infra?.stop();
  });

  /**
   * What a gateway request does, in miniature: a server span, a gRPC call, an event written to
   * the outbox inside it and relayed, a consumer that handles it and logs.
   */
  async function oneRequest(durable: string) {
    const happened = defineEvent(`tracetest.${durable}.happened`, EchoRequest);
    const handled: Array<Record<string, unknown>> = [];
    const consumer = await startConsumer({
      jetstream: nats.jetstream(),
      manager: await nats.jetstreamManager(),
      stream: 'TRACETEST',
      durable,
      event: happened,
      logger,
      handle: async (event) => {
        logger.info({ event_id: event.id }, 'event handled');
        handled.push(lines.at(-1)!);
      },
    });
    const echo = createGrpcClient(EchoServiceClient, server.address);
    const outbox = new Outbox(mongo);
    const relay = startOutboxRelay({
      outbox,
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 60_000,
    });
    const entry = startSpan('GET /things', { kind: SpanKind.SERVER });
    await runWithContext({ requestId: 'r-trace', tenantId: 't1', span: entry }, async () => {
      await echo.call.echo({ text: 'hi', delay_ms: 0, fail_with_code: 0 });
      await outbox.add([
        { type: happened, event: { tenantId: 't1', payload: EchoRequest.fromPartial({}) } },
      ]);
    });
    endSpan(entry);
    await relay.flush();
    await expect.poll(() => handled.length, { timeout: 15_000 }).toBe(1);
    await relay.stop();
    await consumer.stop();
    echo.close();
    return { entry, logLine: handled[0]! };
  }

  it('with no endpoint: nothing is recorded, exported or propagated', async () => {
    // What the other tests' exporters sent (each shuts its exporter down before it ends).
    const exportedBefore = receiver.requests;
    const tracing = startTracing('trace-spec', {});
    expect(tracing.enabled).toBe(false);
    expect(isTracing()).toBe(false);
    const { entry, logLine } = await oneRequest('trace-off');
    expect(entry).toBeUndefined();
    expect(logLine).not.toHaveProperty('trace_id');
    expect(contextToMetadata({ requestId: 'r' }).get('traceparent')).toEqual([]);
    await tracing.flush();
    expect(receiver.requests).toBe(exportedBefore);
  });

  it('one trace from the entry span through the gRPC call and the outbox to the consumer', async () => {
    const tracing = startTracing('trace-spec', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    try {
      expect(tracing.enabled).toBe(true);
      const { entry, logLine } = await oneRequest('trace-on');
      const traceId = entry!.spanContext().traceId;

      let spans: ReceivedSpan[] = [];
      const byKind = (kind: number) => spans.filter((span) => span.kind === kind);
      await expect
        .poll(
          async () => {
            await tracing.flush();
            spans = receiver.spans.filter((span) => span.traceId === traceId);
            return byKind(KIND.consumer).length;
          },
          { timeout: 15_000 },
        )
        .toBe(1);

      const [root] = spans.filter((span) => span.parentSpanId === '');
      expect(root).toMatchObject({ name: 'GET /things', kind: KIND.server, service: 'trace-spec' });
      const [client] = byKind(KIND.client);
      expect(client).toMatchObject({
        name: 'inventory.testing.v1.EchoService/echo',
        parentSpanId: root!.spanId,
      });
      // The callee's span is the child of the client span, through the call's metadata.
      const [callee] = byKind(KIND.server).filter((span) => span !== root);
      expect(callee).toMatchObject({
        name: 'inventory.testing.v1.EchoService/echo',
        parentSpanId: client!.spanId,
        attributes: { 'rpc.grpc.status_code': 0 },
      });
      // The event's producer span belongs to the request; the consumer's continues it through
      // the outbox record and the message's headers.
      const [producer] = byKind(KIND.producer);
      expect(producer).toMatchObject({
        name: 'tracetest.trace-on.happened publish',
        parentSpanId: root!.spanId,
      });
      const [consumer] = byKind(KIND.consumer);
      expect(consumer).toMatchObject({
        name: 'tracetest.trace-on.happened process',
        parentSpanId: producer!.spanId,
        attributes: { 'messaging.consumer.group.name': 'trace-on', 'messaging.outcome': 'handled' },
      });
      // A line logged while handling the event names its trace and span.
      expect(logLine).toMatchObject({ trace_id: traceId, span_id: consumer!.spanId });
    } finally {
      await tracing.shutdown();
    }
    expect(isTracing()).toBe(false);
  });

  it('OTEL_TRACES_SAMPLER_ARG=0: new traces are not recorded, and the callee follows the decision', async () => {
    const tracing = startTracing('trace-spec', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_TRACES_SAMPLER_ARG: '0',
    });
    try {
      const entry = startSpan('GET /unsampled', { kind: SpanKind.SERVER })!;
      expect(entry.isRecording()).toBe(false);
      const metadata = contextToMetadata({ requestId: 'r', span: entry });
      // Propagated with the sampled flag off, so every part downstream skips it too.
      expect(String(metadata.get('traceparent')[0])).toMatch(/-00$/);
      const echo = createGrpcClient(EchoServiceClient, server.address);
      await runWithContext({ requestId: 'r-unsampled', span: entry }, () =>
        echo.call.echo({ text: 'hi', delay_ms: 0, fail_with_code: 0 }),
      );
      echo.close();
      endSpan(entry);
      await tracing.flush();
      const traceId = entry.spanContext().traceId;
      expect(receiver.spans.filter((span) => span.traceId === traceId)).toEqual([]);
    } finally {
      await tracing.shutdown();
    }
  });

  it('a direct publish carries the trace too', async () => {
    const tracing = startTracing('trace-spec', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    try {
      const seen: string[] = [];
      const consumer = await startConsumer({
        jetstream: nats.jetstream(),
        manager: await nats.jetstreamManager(),
        stream: 'TRACETEST',
        durable: 'trace-direct',
        event: pinged,
        logger,
        handle: async (event) => void seen.push(event.id),
      });
      const entry = startSpan('job', { kind: SpanKind.SERVER })!;
      const id = await runWithContext({ requestId: 'r-direct', span: entry }, () =>
        new EventPublisher(nats.jetstream()).publish(pinged, {
          tenantId: 't1',
          payload: EchoRequest.fromPartial({}),
        }),
      );
      endSpan(entry);
      await expect.poll(() => seen.includes(id), { timeout: 15_000 }).toBe(true);
      await consumer.stop();
      const traceId = entry.spanContext().traceId;
      await expect
        .poll(
          async () => {
            await tracing.flush();
            return receiver.spans.filter(
              (span) => span.traceId === traceId && span.kind === KIND.consumer,
            ).length;
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThan(0);
    } finally {
      await tracing.shutdown();
    }
  });
});
