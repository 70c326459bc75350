import { EchoRequest } from '@inventory/contracts/testing/v1/echo.js';
import { consumerDrained, startTestInfra, waitFor, type TestInfra } from '@inventory/local-infra';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  connectNats,
  currentContext,
  createLogger,
  defineEvent,
  encodeEvent,
  ensureStream,
  EventPublisher,
  ProcessedEventStore,
  REQUEST_ID_HEADER,
  runWithContext,
  startConsumer,
  type DomainEvent,
} from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const pinged = defineEvent('testing.echo.pinged', EchoRequest);

describe('JetStream events with an idempotent durable consumer', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  let mongo: Connection;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    nats = await connectNats(infra.natsUrl, 'events-test');
    mongo = await connectMongo(infra.mongoUrl, infra.dbName('events'));
    await ensureStream(await nats.jetstreamManager(), { name: 'TESTING', subjects: ['testing.>'] });
  });
  afterAll(async () => {
    await nats?.close();
    await mongo?.close();
    await infra?.stop();
  });

  it('survives a consumer restart and handles each event exactly once', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const publisher = new EventPublisher(jetstream);
    const processed = new ProcessedEventStore(mongo);
    await processed.init();
    const handled: Array<DomainEvent<EchoRequest>> = [];
    const consumerOptions = {
      jetstream,
      manager,
      stream: 'TESTING',
      durable: 'echo-recorder',
      event: pinged,
      processed,
      logger,
      handle: async (event: DomainEvent<EchoRequest>) => void handled.push(event),
    };

    let consumer = await startConsumer(consumerOptions);
    await publisher.publish(pinged, {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'first' }),
    });
    await waitFor(() => handled.length === 1);
    await consumer.stop();

    // Published while no consumer runs: the durable consumer picks it up after its restart.
    await publisher.publish(pinged, {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'while-down' }),
    });
    // The same event delivered twice under different message ids (as a redelivery past
    // JetStream's duplicate window would be): the consumer must not handle it twice.
    const { id, bytes } = encodeEvent(pinged, {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'duplicate' }),
    });
    await publisher.publishEncoded(pinged.subject, `${id}-a`, bytes, '');
    await publisher.publishEncoded(pinged.subject, `${id}-b`, bytes, '');

    consumer = await startConsumer(consumerOptions);
    await waitFor(() => handled.length === 3);
    await consumerDrained(manager, 'TESTING', 'echo-recorder');
    await consumer.stop();

    expect(handled.map((event) => event.payload.text)).toEqual([
      'first',
      'while-down',
      'duplicate',
    ]);
    expect(
      handled.every((event) => event.tenantId === 't1' && event.occurredAt instanceof Date),
    ).toBe(true);
  });

  it('carries the request id from the publisher to the consumer handler (envelope and NATS header)', async () => {
    const jetstream = nats.jetstream();
    const traced = defineEvent('testing.echo.traced', EchoRequest);
    const seen: Array<{ fromEvent: string; fromContext?: string; header?: string }> = [];
    const consumer = await startConsumer({
      jetstream,
      manager: await nats.jetstreamManager(),
      stream: 'TESTING',
      durable: 'trace-reader',
      event: traced,
      logger,
      handle: async (event) =>
        void seen.push({ fromEvent: event.requestId, fromContext: currentContext()?.requestId }),
    });
    await runWithContext({ requestId: 'req-from-http-1' }, () =>
      new EventPublisher(jetstream).publish(traced, {
        tenantId: 't1',
        payload: EchoRequest.fromPartial({ text: 'x' }),
      }),
    );
    await waitFor(() => seen.length === 1);
    await consumer.stop();
    expect(seen[0]).toEqual({ fromEvent: 'req-from-http-1', fromContext: 'req-from-http-1' });
    const stored = await (
      await nats.jetstreamManager()
    ).streams.getMessage('TESTING', { last_by_subj: traced.subject });
    expect(stored.header.get(REQUEST_ID_HEADER)).toBe('req-from-http-1');
  });

  it('retries an event whose handler failed, and handles it once it succeeds', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const processed = new ProcessedEventStore(mongo);
    let attempts = 0;
    const consumer = await startConsumer({
      jetstream,
      manager,
      stream: 'TESTING',
      durable: 'flaky-handler',
      event: defineEvent('testing.echo.flaky', EchoRequest),
      processed,
      logger,
      retryDelayMs: 50,
      handle: async () => {
        attempts++;
        if (attempts < 3) throw new Error('transient');
      },
    });
    await new EventPublisher(jetstream).publish(defineEvent('testing.echo.flaky', EchoRequest), {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'retry me' }),
    });
    await waitFor(() => attempts === 3);
    await consumerDrained(manager, 'TESTING', 'flaky-handler');
    await consumer.stop();
    expect(attempts).toBe(3);
  });
});
