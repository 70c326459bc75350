import { tokenRequestsLogged } from '@inventory/events';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectNats, createLogger, decodeEnvelope, decodeEvent } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestLogPublisher } from './request-log.js';

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
  const received: Array<{ tenantId: string; ids: string[] }> = [];

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, mongo: false });
    nats = await connectNats(infra.natsUrl, 'request-log-test');
    nats.subscribe(tokenRequestsLogged.subject, {
      callback: (_error, message) => {
        const event = decodeEvent(tokenRequestsLogged, decodeEnvelope(message.data));
        received.push({
          tenantId: event.tenantId,
          ids: event.payload.requests.map((request) => request.id),
        });
      },
    });
  });
  afterAll(async () => {
    await nats?.close();
    await infra?.stop();
  });

  it('publishes one batch per tenant after the flush interval, and at once when a batch is full', async () => {
    const publisher = new RequestLogPublisher(
      nats,
      createLogger({ service: 'test', level: 'silent' }),
      { flushIntervalMs: 50, maxBatch: 3 },
    );
    publisher.record('t1', entry('a'));
    publisher.record('t2', entry('b'));
    publisher.record('t1', entry('c'));
    await nats.flush();
    expect(received).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await nats.flush();
    expect(received).toEqual([
      { tenantId: 't1', ids: ['a', 'c'] },
      { tenantId: 't2', ids: ['b'] },
    ]);

    received.length = 0;
    for (const id of ['d', 'e', 'f']) publisher.record('t1', entry(id));
    await nats.flush();
    expect(received).toEqual([{ tenantId: 't1', ids: ['d', 'e', 'f'] }]);
    publisher.flush();
  });
});
