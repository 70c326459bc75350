import { tokenRequestsLogged } from '@inventory/events';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectNats, createLogger, decodeEnvelope, decodeEvent } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLogPublisher, requestEntryId } from './request-log.js';

const entry = (id: string) => ({
  id,
  token_id: 1,
  user_id: 1,
  method: 'GET',
  route: '/api/user',
  path: '/api/user',
  status: 200,
  duration_ms: 1,
  ip: '127.0.0.1',
  user_agent: 'ua',
  at: new Date(),
});

describe('RequestLogPublisher', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  const received: Array<{ tenantId: string; ids: string[]; bytes: number }> = [];
  /** The batches of these tenants, by tenant: each test records under tenants of its own. */
  const batchesOf = (...tenants: string[]) =>
    received
      .filter((batch) => tenants.includes(batch.tenantId))
      .sort((x, y) => x.tenantId.localeCompare(y.tenantId))
      .map(({ tenantId, ids }) => ({ tenantId, ids }));

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, mongo: false });
    nats = await connectNats(infra.natsUrl, 'request-log-test');
    nats.subscribe(tokenRequestsLogged.subject, {
      callback: (_error, message) => {
        const event = decodeEvent(tokenRequestsLogged, decodeEnvelope(message.data));
        received.push({
          tenantId: event.tenantId,
          ids: event.payload.requests.map((request) => request.id),
          bytes: message.data.length,
        });
      },
    });
  });
  afterAll(async () => {
    await nats?.close();
    await infra?.stop();
  });

  it('holds entries until a flush, then publishes one batch per tenant; a full batch goes at once', async () => {
    // An interval no test run reaches: nothing can be published before the explicit flush.
    const publisher = new RequestLogPublisher(
      nats,
      createLogger({ service: 'test', level: 'silent' }),
      { flushIntervalMs: 600_000, maxBatch: 3 },
    );
    publisher.record('t1', entry('a'));
    publisher.record('t2', entry('b'));
    publisher.record('t1', entry('c'));
    await nats.flush();
    expect(batchesOf('t1', 't2')).toEqual([]);
    publisher.flush();
    await expect
      .poll(() => batchesOf('t1', 't2'))
      .toEqual([
        { tenantId: 't1', ids: ['a', 'c'] },
        { tenantId: 't2', ids: ['b'] },
      ]);

    for (const id of ['d', 'e', 'f']) publisher.record('t4', entry(id));
    await expect.poll(() => batchesOf('t4')).toEqual([{ tenantId: 't4', ids: ['d', 'e', 'f'] }]);
    publisher.flush();
  });

  it('flushes by itself once the interval passes', async () => {
    const publisher = new RequestLogPublisher(
      nats,
      createLogger({ service: 'test', level: 'silent' }),
      { flushIntervalMs: 20, maxBatch: 100 },
    );
    publisher.record('t3', entry('g'));
    await expect
      .poll(() => batchesOf('t3'), { timeout: 10_000 })
      .toEqual([{ tenantId: 't3', ids: ['g'] }]);
  });

  it('sends a batch the server would refuse as several messages, each under its payload limit, none lost', async () => {
    const publisher = new RequestLogPublisher(
      nats,
      createLogger({ service: 'test', level: 'silent' }),
      { flushIntervalMs: 600_000, maxBatch: 10_000 },
    );
    // Entries as long as the gateway lets them be: 1,200 of them are about 3 MB.
    const ids = Array.from({ length: 1200 }, (_, i) => `long-${i}`);
    for (const id of ids)
      publisher.record('t5', {
        ...entry(id),
        path: `/api/${'p'.repeat(2040)}`,
        user_agent: 'u'.repeat(512),
      });
    publisher.flush();
    await expect
      .poll(() => received.filter((batch) => batch.tenantId === 't5').flatMap((b) => b.ids))
      .toEqual(ids);
    const messages = received.filter((batch) => batch.tenantId === 't5');
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages)
      expect(message.bytes).toBeLessThanOrEqual(nats.info!.max_payload);
  });

  it('gives entries ids that increase in the order they are made, within one millisecond too', () => {
    const ids = Array.from({ length: 1000 }, () => requestEntryId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
