import { EchoRequest } from '@inventory/contracts/testing/v1/echo.js';
import {
  callTimes,
  documentsExamined,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  connectNats,
  createLogger,
  decodeEnvelope,
  defineEvent,
  ensureStream,
  EventPublisher,
  Outbox,
  startOutboxRelay,
} from '../src/index.js';

const logger = createLogger({ service: 'test', level: 'silent' });
const changed = defineEvent('outboxtest.thing.changed', EchoRequest);

describe('transactional outbox', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  const databases: Connection[] = [];

  /** A database of the test's own: the outbox's records of one test are never another's. */
  async function ownDatabase(name: string): Promise<Connection> {
    const connection = await connectMongo(infra.mongoUrl, infra.dbName(`outbox-${name}`));
    databases.push(connection);
    return connection;
  }

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    nats = await connectNats(infra.natsUrl, 'outbox-test');
    await ensureStream(await nats.jetstreamManager(), {
      name: 'OUTBOXTEST',
      subjects: ['outboxtest.>'],
    });
  });
  afterAll(async () => {
    await nats?.close();
    for (const connection of databases) await connection.close();
    await infra?.stop();
  });

  /** How many times `text` was published on the stream (every test publishes texts of its own). */
  async function published(text: string): Promise<number> {
    return (await streamMessages()).filter((message) => message === text).length;
  }

  async function streamMessages(): Promise<string[]> {
    const manager = await nats.jetstreamManager();
    const info = await manager.streams.info('OUTBOXTEST');
    const texts: string[] = [];
    for (
      let seq = info.state.first_seq;
      seq <= info.state.last_seq && info.state.messages > 0;
      seq++
    ) {
      const message = await manager.streams
        .getMessage('OUTBOXTEST', { seq })
        .catch(() => undefined);
      if (message) texts.push(EchoRequest.decode(decodeEnvelope(message.data).payload).text);
    }
    return texts;
  }

  it('publishes, after a restart, an event recorded before a crash', async () => {
    const mongo = await ownDatabase('restart');
    // "Before the crash": the change and its event are recorded, no relay runs.
    const outbox = new Outbox(mongo);
    await outbox.model.init();
    await outbox.withEvents(
      [
        {
          type: changed,
          event: {
            tenantId: 't1',
            payload: EchoRequest.fromPartial({ text: 'recorded-before-crash' }),
          },
        },
      ],
      async () => 'changed',
    );
    expect(await outbox.model.countDocuments({ state: 'ready' })).toBe(1);
    expect(await published('recorded-before-crash')).toBe(0);

    // "After the restart": a new relay over the same database publishes it.
    const relay = startOutboxRelay({
      outbox: new Outbox(mongo),
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 50,
    });
    await relay.flush();
    await relay.stop();
    expect(await published('recorded-before-crash')).toBe(1);
    expect(await outbox.model.countDocuments()).toBe(0);
  });

  it('looks less often while idle and still publishes what another replica left ready', async () => {
    const mongo = await ownDatabase('idle');
    const outbox = new Outbox(mongo);
    await outbox.model.init();
    const lookedAt = callTimes(outbox, 'due');
    const relay = startOutboxRelay({
      outbox,
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 20,
      idleIntervalMs: 160,
    });
    try {
      // Empty looks at 0, 20, 60, 140, 300, 460 ms at the earliest: waits of 20, 40, 80, 160, 160.
      await expect.poll(() => lookedAt.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(6);
      expect(lookedAt[5]! - lookedAt[0]!).toBeGreaterThanOrEqual(440);

      // Another replica's outbox: ready, but this relay is not told.
      await new Outbox(mongo).add([
        {
          type: changed,
          event: {
            tenantId: 't1',
            payload: EchoRequest.fromPartial({ text: 'left-by-a-replica' }),
          },
        },
      ]);
      await expect.poll(() => published('left-by-a-replica'), { timeout: 10_000 }).toBe(1);
    } finally {
      await relay.stop();
    }
    expect(await outbox.model.countDocuments()).toBe(0);
  });

  it('reads only the records a pass publishes, however long the backlog (after a NATS outage)', async () => {
    const mongo = await ownDatabase('backlog');
    const outbox = new Outbox(mongo);
    await outbox.model.init();
    for (let chunk = 0; chunk < 10; chunk++)
      await outbox.add(
        Array.from({ length: 100 }, (_, i) => ({
          type: changed,
          event: {
            tenantId: 't1',
            payload: EchoRequest.fromPartial({ text: `backlog-${chunk * 100 + i}` }),
          },
        })),
      );
    const examined = () => documentsExamined(mongo.db!);
    const relay = startOutboxRelay({
      outbox,
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 60_000,
      batchSize: 50,
    });
    try {
      const before = await examined();
      expect(await relay.flush()).toBe(50);
      const examinedByPasses = (await examined()) - before;
      // The relay may have started a pass of its own as well: count what every pass published.
      const publishedByPasses = 1000 - (await outbox.model.countDocuments());
      // Per record: read once, deleted once; per pass, the oldest of each state for the lag.
      // Not the 1,000 waiting, read and sorted by every pass and every backlog measure.
      expect(examinedByPasses).toBeLessThanOrEqual(2 * publishedByPasses + 20);
      expect(await published('backlog-0')).toBe(1);
      expect(await published('backlog-49')).toBe(1);
    } finally {
      await relay.stop();
    }
  });

  it('drops the events of a state change that failed', async () => {
    const outbox = new Outbox(await ownDatabase('failed'));
    await expect(
      outbox.withEvents(
        [
          {
            type: changed,
            event: { tenantId: 't1', payload: EchoRequest.fromPartial({ text: 'never' }) },
          },
        ],
        async () => {
          throw new Error('validation failed');
        },
      ),
    ).rejects.toThrow('validation failed');
    expect(await outbox.model.countDocuments()).toBe(0);
  });

  it('publishes a pending record orphaned by a crash mid-change once its grace period passes', async () => {
    const mongo = await ownDatabase('orphan');
    const outbox = new Outbox(mongo);
    const crash = new Promise<never>(() => undefined); // the change never completes: the process "dies" here
    void outbox.withEvents(
      [
        {
          type: changed,
          event: { tenantId: 't1', payload: EchoRequest.fromPartial({ text: 'orphaned' }) },
        },
      ],
      () => crash,
    );
    await expect
      .poll(() => outbox.model.countDocuments({ state: 'pending' }), { timeout: 10_000 })
      .toBe(1);
    let clock = Date.now();
    const relay = startOutboxRelay({
      outbox: new Outbox(mongo),
      publisher: new EventPublisher(nats.jetstream()),
      logger,
      intervalMs: 60_000,
      orphanAfterMs: 30_000,
      now: () => clock,
    });
    await relay.flush();
    expect(await published('orphaned')).toBe(0);
    clock += 30_001;
    await relay.flush();
    await relay.stop();
    await expect.poll(() => published('orphaned'), { timeout: 10_000 }).toBe(1);
  });
});
