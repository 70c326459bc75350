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
  redeliveryDelayMs,
  REQUEST_ID_HEADER,
  runWithContext,
  startBatchConsumer,
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

  it('never drops an event whose handler keeps failing: redelivered past ten deliveries, with growing waits, until it succeeds (ADR 0740)', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const attemptsAt: number[] = [];
    const consumer = await startConsumer({
      jetstream,
      manager,
      stream: 'TESTING',
      durable: 'long-outage',
      event: defineEvent('testing.echo.outage', EchoRequest),
      logger,
      retryDelayMs: 5,
      maxRetryDelayMs: 40,
      handle: async () => {
        attemptsAt.push(Date.now());
        if (attemptsAt.length < 15) throw new Error('dependency frozen');
      },
    });
    await new EventPublisher(jetstream).publish(defineEvent('testing.echo.outage', EchoRequest), {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'outlast the outage' }),
    });
    await waitFor(() => attemptsAt.length === 15, 30_000);
    await consumerDrained(manager, 'TESTING', 'long-outage');
    await consumer.stop();
    expect(attemptsAt).toHaveLength(15);
    expect((await manager.consumers.info('TESTING', 'long-outage')).config.max_deliver).toBe(-1);
  });

  it('redelivers a failed batch past ten deliveries too, every event of it, until the handler succeeds', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const event = defineEvent('testing.echo.batch-outage', EchoRequest);
    let calls = 0;
    const handled = new Set<string>();
    const consumer = await startBatchConsumer({
      jetstream,
      manager,
      stream: 'TESTING',
      durable: 'batch-long-outage',
      event,
      logger,
      retryDelayMs: 5,
      maxRetryDelayMs: 40,
      handle: async (events) => {
        calls++;
        if (calls < 15) throw new Error('dependency frozen');
        for (const one of events) handled.add(one.payload.text);
      },
    });
    const publisher = new EventPublisher(jetstream);
    for (const text of ['one', 'two', 'three'])
      await publisher.publish(event, {
        tenantId: 't1',
        payload: EchoRequest.fromPartial({ text }),
      });
    await waitFor(() => handled.size === 3, 30_000);
    await consumerDrained(manager, 'TESTING', 'batch-long-outage');
    await consumer.stop();
    expect([...handled].sort()).toEqual(['one', 'three', 'two']);
  });

  it('waits before each redelivery of a failed batch, twice as long each time (lower bounds only)', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const event = defineEvent('testing.echo.batch-backoff', EchoRequest);
    const attemptsAt: number[] = [];
    const consumer = await startBatchConsumer({
      jetstream,
      manager,
      stream: 'TESTING',
      durable: 'batch-backoff',
      event,
      logger,
      // The longest wait left to its default, as the services leave it.
      retryDelayMs: 300,
      handle: async () => {
        attemptsAt.push(performance.now());
        if (attemptsAt.length < 4) throw new Error('dependency down');
      },
    });
    await new EventPublisher(jetstream).publish(event, {
      tenantId: 't1',
      payload: EchoRequest.fromPartial({ text: 'back off' }),
    });
    await waitFor(() => attemptsAt.length === 4, 30_000);
    await consumerDrained(manager, 'TESTING', 'batch-backoff');
    await consumer.stop();
    const gaps = attemptsAt.slice(1).map((at, index) => at - attemptsAt[index]!);
    // The server holds a nakked event for the delay asked: 300, 600 and 1,200 ms at least.
    expect(gaps.map((gap, index) => gap >= 300 * 2 ** index)).toEqual([true, true, true]);
  });

  it('waits twice as long before each redelivery, up to the longest wait', () => {
    expect([1, 2, 3, 4, 5, 8, 40].map((n) => redeliveryDelayMs(n))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 60_000, 60_000,
    ]);
    expect(redeliveryDelayMs(3, { baseMs: 5, maxMs: 40 })).toBe(20);
    // What a consumer passes when its options leave both unset.
    expect(redeliveryDelayMs(3, { baseMs: undefined, maxMs: undefined })).toBe(4_000);
  });
});
