import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { AckPolicy, DeliverPolicy, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, ensureDurableConsumer, ensureStream } from '../src/index.js';

const STREAM = 'DURABLES';

describe('ensureDurableConsumer', () => {
  let infra: TestInfra;
  let nats: NatsConnection;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, mongo: false });
    nats = await connectNats(infra.natsUrl, 'durable-consumer-test');
    await ensureStream(await nats.jetstreamManager(), { name: STREAM, subjects: ['durables.>'] });
  });
  afterAll(async () => {
    await nats?.close();
    await infra?.stop();
  });

  it('creates a durable, explicitly acknowledged consumer of one subject from the first message', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    await jetstream.publish('durables.created', 'before');
    await jetstream.publish('durables.other', 'not read');

    const consumer = await ensureDurableConsumer(jetstream, manager, {
      stream: STREAM,
      durable: 'created',
      filterSubject: 'durables.created',
    });

    const { config, num_pending } = await manager.consumers.info(STREAM, 'created');
    expect(config).toMatchObject({
      durable_name: 'created',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: 'durables.created',
      max_deliver: -1,
      ack_wait: 30_000 * 1_000_000,
    });
    // Published before the consumer existed, and only its subject's.
    expect(num_pending).toBe(1);
    const message = await consumer.next({ expires: 5_000 });
    expect(message?.string()).toBe('before');
  });

  it("created with deliverPolicy 'new', reads only what is published after it, and keeps its position on a later start", async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    await jetstream.publish('durables.fresh', 'before');
    const spec = {
      stream: STREAM,
      durable: 'fresh',
      filterSubject: 'durables.fresh',
      deliverPolicy: 'new' as const,
    };
    const consumer = await ensureDurableConsumer(jetstream, manager, spec);
    expect((await manager.consumers.info(STREAM, 'fresh')).config.deliver_policy).toBe(
      DeliverPolicy.New,
    );
    await jetstream.publish('durables.fresh', 'after');
    await jetstream.publish('durables.fresh', 'later');
    const message = await consumer.next({ expires: 5_000 });
    expect(message?.string()).toBe('after');
    await message!.ackAck();

    const again = await ensureDurableConsumer(jetstream, manager, spec);
    const next = await again.next({ expires: 5_000 });
    expect(next?.string()).toBe('later');
  });

  it('keeps an existing consumer and its position, bringing its redelivery settings up to date', async () => {
    const jetstream = nats.jetstream();
    const manager = await nats.jetstreamManager();
    const spec = { stream: STREAM, durable: 'kept', filterSubject: 'durables.kept' };
    const first = await ensureDurableConsumer(jetstream, manager, spec);
    for (const text of ['one', 'two', 'three']) await jetstream.publish('durables.kept', text);
    for (let n = 0; n < 2; n++) {
      const message = await first.next({ expires: 5_000 });
      await message!.ackAck();
    }

    const again = await ensureDurableConsumer(jetstream, manager, {
      ...spec,
      maxDeliver: 3,
      ackWaitMs: 5_000,
    });

    const info = await manager.consumers.info(STREAM, 'kept');
    expect(info.config).toMatchObject({ max_deliver: 3, ack_wait: 5_000 * 1_000_000 });
    expect(info.ack_floor.stream_seq).toBeGreaterThan(0);
    expect(info.num_pending).toBe(1);
    const next = await again.next({ expires: 5_000 });
    expect(next?.string()).toBe('three');
  });
});
