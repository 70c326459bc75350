import { domainEventEntry, type DomainEventName } from '@inventory/events';
import { describe, expect, it } from 'vitest';
import { PATH, poll, subscriptionHarness, type Received } from './subscription-harness.js';

interface Body {
  event: string;
  delivery_id: string;
  data: { id: number; resource_sequence: number };
}

describe('per-resource sequence numbers in every delivery', () => {
  const h = subscriptionHarness();

  const emit = async (name: DomainEventName, id: number) => {
    const { type, event } = domainEventEntry({ tenantId: h.owner.tenant.id, name, data: { id } });
    await h.publisher.publish(type, event);
  };
  const bodiesAt = (path: string): Body[] =>
    h.received.filter((r: Received) => r.path === path).map((r) => JSON.parse(r.body) as Body);

  it('increase with each event of a sales order, are the same for every subscriber and every send of one event, and leave the envelope as the specification has it', async () => {
    const orderEvents = ['sales_order.created', 'sales_order.shipped', 'sales_order.cancelled'];
    const first = await h.create(h.owner, { url: `${h.receiverUrl}/seq-a`, events: orderEvents });
    const second = await h.create(h.owner, { url: `${h.receiverUrl}/seq-b`, events: orderEvents });
    expect([first.status, second.status]).toEqual([201, 201]);

    // Order 501's life, with another order's event in between.
    await emit('sales_order.created', 501);
    await emit('sales_order.created', 777);
    await emit('sales_order.shipped', 501);
    await emit('sales_order.cancelled', 501);
    const a = await poll(() => (bodiesAt('/seq-a').length === 4 ? bodiesAt('/seq-a') : undefined));
    const b = await poll(() => (bodiesAt('/seq-b').length === 4 ? bodiesAt('/seq-b') : undefined));

    for (const body of a) {
      expect(Object.keys(body)).toEqual(['event', 'delivery_id', 'occurred_at', 'data']);
      expect(Number.isSafeInteger(body.data.resource_sequence)).toBe(true);
    }
    // Whatever order they arrived in, sorting one order's deliveries by the number gives the
    // order its events happened in.
    const lifeOf = (bodies: Body[], id: number) =>
      bodies
        .filter((body) => body.data.id === id)
        .sort((x, y) => x.data.resource_sequence - y.data.resource_sequence)
        .map((body) => body.event);
    expect(lifeOf(a, 501)).toEqual(orderEvents);
    expect(lifeOf(b, 501)).toEqual(orderEvents);
    const numbers = (bodies: Body[]) =>
      Object.fromEntries(
        bodies.map((body) => [body.event + body.data.id, body.data.resource_sequence]),
      );
    expect(numbers(b)).toEqual(numbers(a));

    // A redelivery sends the same body: the same number.
    const shipped = a.find((body) => body.event === 'sales_order.shipped')!;
    const id = first.body.data.id as number;
    expect(
      (await h.owner.request('POST', `${PATH}/${id}/deliveries/${shipped.delivery_id}/redeliver`))
        .status,
    ).toBe(202);
    const again = await poll(() => {
      const sends = bodiesAt('/seq-a').filter((body) => body.delivery_id === shipped.delivery_id);
      return sends.length === 2 ? sends : undefined;
    });
    expect(again[1]!.data.resource_sequence).toBe(shipped.data.resource_sequence);
  });
});
