import { domainEventEntry } from '@inventory/events';
import { startTcpProxy, type TcpProxy } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, clientAt, waitFor } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-unstored';

// ADR 0741: a first attempt the receiver accepted, whose row MongoDB failed to store, is stored
// when JetStream brings the event back; it is not sent a second time.
describe('a delivery whose row could not be stored after a successful attempt', () => {
  let proxy: TcpProxy;
  // Registered before the suite, so that it runs after the suite has stopped the replica using it.
  afterAll(async () => {
    await proxy?.close();
  });
  const suite = useReceiverSuite();
  beforeAll(async () => {
    proxy = await startTcpProxy(suite.h.infra.mongoUrl);
  });

  it('is stored on the event’s redelivery and not sent again', { timeout: 120_000 }, async () => {
    const { id } = await suite.subscribe(TENANT, '/once');
    // The only replica from here on reaches MongoDB through the proxy.
    await suite.h.stopReplicas();
    const replica = await suite.h.startReplica({
      MONGO_URL: proxy.through(suite.h.infra.mongoUrl),
    });
    const client = clientAt(replica.grpc!.address);
    // MongoDB stops answering while the receiver takes the delivery (and says 200).
    suite.receiver.respond((_request, response) => {
      proxy.stall();
      response.writeHead(200).end('ok');
    });
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'once' },
    });
    const eventId = await replica.publisher.publish(type, event);
    await waitFor(() => suite.receiver.requests.length === 1, 'the first attempt');
    await waitFor(() => proxy.held().includes(`${eventId}:${id}`), 'the insert of its row');
    // The insert fails (the connection is reset, as when MongoDB is killed); MongoDB comes back.
    proxy.cut();
    proxy.resume();
    suite.receiver.respond((_request, response) => response.writeHead(200).end('again'));

    const stored = await waitFor(async () => {
      const { deliveries } = await as(TENANT, () =>
        client.call.listDeliveries({ subscription_id: id, page: 1, per_page: 10 }),
      );
      return deliveries.length === 1 && deliveries[0]!.status === 'succeeded'
        ? deliveries[0]
        : undefined;
    }, 'the delivery stored');
    expect(stored!.attempts).toHaveLength(1);
    expect(stored!.attempts[0]).toMatchObject({ response_status: 200, response_body: 'ok' });
    expect(suite.receiver.requests).toHaveLength(1);
    client.close();
  });
});
