import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { domainEventEntry } from '@inventory/events';
import { startTcpProxy, type TcpProxy } from '@inventory/local-infra';
import { createGrpcClient } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startHarness, subscribe, waitFor, type Harness } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TENANT = 'tenant-unstored';

// ADR 0741: a first attempt the receiver accepted, whose row MongoDB failed to store, is stored
// when JetStream brings the event back; it is not sent a second time.
describe('a delivery whose row could not be stored after a successful attempt', () => {
  let h: Harness;
  let proxy: TcpProxy;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await startHarness();
    receiver = await startReceiver();
    proxy = await startTcpProxy(h.infra.mongoUrl);
  });
  afterAll(async () => {
    await receiver?.stop();
    await h?.stop();
    await proxy?.close();
  });

  it('is stored on the event’s redelivery and not sent again', { timeout: 120_000 }, async () => {
    const { id } = await subscribe(h, TENANT, `${receiver.url}/once`);
    // The only replica from here on reaches MongoDB through the proxy.
    await h.stopReplicas();
    const replica = await h.startReplica({ MONGO_URL: proxy.through(h.infra.mongoUrl) });
    const client = createGrpcClient(OutboundDeliveryServiceClient, replica.grpc!.address, {
      deadlineMs: 20_000,
    });
    // MongoDB stops answering while the receiver takes the delivery (and says 200).
    receiver.respond((_request, response) => {
      proxy.stall();
      response.writeHead(200).end('ok');
    });
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { n: 'once' },
    });
    const eventId = await replica.publisher.publish(type, event);
    await waitFor(() => receiver.requests.length === 1, 'the first attempt');
    await waitFor(() => proxy.held().includes(`${eventId}:${id}`), 'the insert of its row');
    // The insert fails (the connection is reset, as when MongoDB is killed); MongoDB comes back.
    proxy.cut();
    proxy.resume();
    receiver.respond((_request, response) => response.writeHead(200).end('again'));

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
    expect(receiver.requests).toHaveLength(1);
    client.close();
  });
});
