import { status as GrpcStatus } from '@grpc/grpc-js';
import { EchoRequest, EchoServiceClient } from '@inventory/contracts/testing/v1/echo.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  connectNats,
  createGrpcClient,
  createLogger,
  createMetrics,
  defineEvent,
  encodeEvent,
  ensureStream,
  EventPublisher,
  Outbox,
  ProcessedEventStore,
  startBatchConsumer,
  startConsumer,
  startGrpcServer,
  startOutboxRelay,
} from '../src/index.js';
import { echoRegistration } from './fixtures/echo-service.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const SERVICE = 'inventory.testing.v1.EchoService';

/** A sample's value as a process's /metrics would serve it (0 when absent). */
async function sample(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = createMetrics('probe').registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const found = values.find((v) =>
    Object.entries(labels).every(([key, value]) => String(v.labels[key]) === value),
  );
  return found?.value ?? 0;
}

describe('platform metrics of clients, breakers, consumers and the outbox', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  let mongo: Connection;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    nats = await connectNats(infra.natsUrl, 'metrics-test');
    mongo = await connectMongo(infra.mongoUrl, infra.dbName('metrics'));
    await ensureStream(await nats.jetstreamManager(), {
      name: 'METRICSTEST',
      subjects: ['metricstest.>'],
    });
  });
  afterAll(async () => {
    await nats?.close();
    await mongo?.close();
    await infra?.stop();
  });

  it('counts gRPC client calls by target, method and code, and shows the breaker opening', async () => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
    const echo = createGrpcClient(EchoServiceClient, server.address, {
      breaker: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 },
    });
    const labels = (grpc_code: string) => ({
      grpc_service: SERVICE,
      grpc_method: 'echo',
      grpc_code,
    });
    const before = {
      ok: await sample('grpc_client_handled_total', labels('OK')),
      unavailable: await sample('grpc_client_handled_total', labels('UNAVAILABLE')),
      open: await sample('grpc_client_handled_total', labels('circuit_open')),
    };
    await echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 });
    expect(await sample('circuit_breaker_state', { breaker: SERVICE })).toBe(0);
    for (let i = 0; i < 2; i++)
      await echo.call
        .echo({ text: 'x', delay_ms: 0, fail_with_code: GrpcStatus.UNAVAILABLE })
        .catch(() => undefined);
    await echo.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 }).catch(() => undefined);

    expect(await sample('grpc_client_handled_total', labels('OK'))).toBe(before.ok + 1);
    expect(await sample('grpc_client_handled_total', labels('UNAVAILABLE'))).toBe(
      before.unavailable + 2,
    );
    expect(await sample('grpc_client_handled_total', labels('circuit_open'))).toBe(before.open + 1);
    expect(await sample('circuit_breaker_state', { breaker: SERVICE })).toBe(2);
    echo.breaker.shutdown();
    echo.close();
    await server.stop(1_000);
  });

  it('labels each breaker by its client name, so two clients of one service keep two series', async () => {
    const server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [echoRegistration],
      logger,
    });
    const breaker = { volumeThreshold: 1, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 };
    const failing = createGrpcClient(EchoServiceClient, server.address, {
      breaker,
      breakerName: `${SERVICE}/failing`,
    });
    const healthy = createGrpcClient(EchoServiceClient, server.address, {
      breaker,
      breakerName: `${SERVICE}/healthy`,
    });
    await failing.call
      .echo({ text: 'x', delay_ms: 0, fail_with_code: GrpcStatus.UNAVAILABLE })
      .catch(() => undefined);
    await healthy.call.echo({ text: 'ok', delay_ms: 0, fail_with_code: 0 });
    expect(await sample('circuit_breaker_state', { breaker: `${SERVICE}/failing` })).toBe(2);
    expect(await sample('circuit_breaker_state', { breaker: `${SERVICE}/healthy` })).toBe(0);
    for (const client of [failing, healthy]) {
      client.breaker.shutdown();
      client.close();
    }
    await server.stop(1_000);
  });

  it('counts consumed events by outcome and reports the consumer drained', async () => {
    const pinged = defineEvent('metricstest.echo.pinged', EchoRequest);
    const processed = new ProcessedEventStore(mongo);
    await processed.init();
    const durable = 'metrics-recorder';
    let handled = 0;
    const consumer = await startConsumer({
      jetstream: nats.jetstream(),
      manager: await nats.jetstreamManager(),
      stream: 'METRICSTEST',
      durable,
      event: pinged,
      processed,
      logger,
      handle: async () => void handled++,
    });
    const publisher = new EventPublisher(nats.jetstream());
    const event = { tenantId: 't1', id: 'metrics-event-1', payload: EchoRequest.fromPartial({}) };
    await publisher.publish(pinged, event);
    // The same event id under another message id: delivered again, handled once.
    const { bytes } = encodeEvent(pinged, event);
    await publisher.publishEncoded(pinged.subject, 'metrics-event-1-again', bytes, '');

    const counted = (outcome: string) => sample('events_consumed_total', { durable, outcome });
    await expect.poll(() => counted('duplicate'), { timeout: 15_000 }).toBe(1);
    expect(await counted('handled')).toBe(1);
    expect(handled).toBe(1);
    await expect
      .poll(() => sample('events_consumer_pending', { durable }), { timeout: 15_000 })
      .toBe(0);
    await consumer.stop();
  });

  it("reports a batch consumer's backlog, and forgets it once stopped", async () => {
    const pinged = defineEvent('metricstest.batch.pinged', EchoRequest);
    const durable = 'metrics-batch-recorder';
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken = 0;
    const manager = await nats.jetstreamManager();
    const consumer = await startBatchConsumer({
      jetstream: nats.jetstream(),
      manager,
      stream: 'METRICSTEST',
      durable,
      event: pinged,
      logger,
      handle: async (events) => {
        taken += events.length;
        await held;
      },
    });
    const publisher = new EventPublisher(nats.jetstream());
    for (let index = 0; index < 3; index++)
      await publisher.publish(pinged, { tenantId: 't1', payload: EchoRequest.fromPartial({}) });
    // The handler holds the first batch: it and the events behind it are all unacknowledged.
    await expect.poll(() => taken, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await sample('events_consumer_pending', { durable })).toBe(3);
    release();
    await expect
      .poll(() => sample('events_consumer_pending', { durable }), { timeout: 15_000 })
      .toBe(0);
    await consumer.stop();
    const { values } = await createMetrics('probe')
      .registry.getSingleMetric('events_consumer_pending')!
      .get();
    expect(values.filter((value) => value.labels.durable === durable)).toEqual([]);
  });

  it('counts published outbox records and reports the backlog and its age', async () => {
    const changed = defineEvent('metricstest.thing.changed', EchoRequest);
    const outbox = new Outbox(mongo);
    const published = await sample('outbox_published_total');
    await outbox.withEvents(
      [{ type: changed, event: { tenantId: 't1', payload: EchoRequest.fromPartial({}) } }],
      async () => undefined,
    );
    const relay = startOutboxRelay({
      outbox,
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 60_000,
    });
    await relay.flush();
    await relay.stop();
    expect(await sample('outbox_published_total')).toBe(published + 1);
    expect(await sample('outbox_backlog')).toBe(0);
    expect(await sample('outbox_relay_lag_seconds')).toBe(0);
  });
});
