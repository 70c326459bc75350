import { describe, expect, it } from 'vitest';
import { as, failureOf, waitFor } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-filters';
const ADJUSTED = 'inventory.adjusted';

/** Content filters (ADR 0418): a subscription receives only the events whose data matches. */
describe('content filters on a subscription', () => {
  const suite = useReceiverSuite();

  const filtered = async (path: string, filter: unknown) => {
    const created = await as(TENANT, () =>
      suite.h.client.call.createSubscription({
        url: `${suite.receiver.url}/${path}`,
        events: [ADJUSTED],
        input_violations: [],
        filter_json: JSON.stringify(filter),
      }),
    );
    return created.subscription!;
  };
  const received = (path: string) =>
    suite
      .bodiesTo<{ data: { n: number } }>(`/${path}`)
      .map((body) => body.data.n)
      .sort((a, b) => a - b);

  it("sends only matching events, before the cap counts them, for the issue's three examples", async () => {
    const warehouse = await filtered('warehouse-3', { warehouse_id: 3 });
    const acme = await filtered('acme', { sku: { $startsWith: 'ACME-' } });
    const low = await filtered('low', { new_quantity: { $lt: 10 } });
    expect(JSON.parse(low.filter_json!)).toEqual({ new_quantity: { $lt: 10 } });
    // Every event reaches an unfiltered subscription: the sentinel that all were handled.
    const { id: all } = await suite.subscribe(TENANT, '/all', [ADJUSTED]);
    const events = [
      { n: 1, warehouse_id: 3, sku: 'ACME-1', new_quantity: 50 },
      { n: 2, warehouse_id: 4, sku: 'acme-2', new_quantity: 5 },
      { n: 3, warehouse_id: 3, sku: 'OTHER', new_quantity: 9 },
      { n: 4, warehouse_id: '3', sku: 'ACME-4', new_quantity: '1' },
    ];
    for (const data of events) await suite.h.publish(TENANT, ADJUSTED, data);
    await waitFor(() => received('all').length === 4 || undefined, 'every event to /all');
    await waitFor(
      () =>
        received('warehouse-3').length + received('acme').length + received('low').length === 6 ||
        undefined,
      'the filtered deliveries',
    );
    expect(received('warehouse-3')).toEqual([1, 3]);
    expect(received('acme')).toEqual([1, 4]);
    expect(received('low')).toEqual([2, 3]);
    // Nothing is stored for an event a filter left out.
    expect((await suite.deliveriesOf(TENANT, warehouse.id)).total).toBe(2);
    expect((await suite.deliveriesOf(TENANT, all)).total).toBe(4);
    expect((await suite.deliveriesOf(TENANT, acme.id)).total).toBe(2);
  });

  it('changes and removes a filter on update, and keeps it when the update does not name it', async () => {
    const subscription = await filtered('changing', { warehouse_id: 1 });
    const update = (changes: Parameters<typeof suite.update>[2]) =>
      suite.update(TENANT, subscription.id, changes);
    const renamed = await update({ description: 'still filtered' });
    expect(JSON.parse(renamed.subscription!.filter_json!)).toEqual({ warehouse_id: 1 });
    const changed = await update({
      filter_json: JSON.stringify({ warehouse_id: { $in: [2, 3] } }),
    });
    expect(JSON.parse(changed.subscription!.filter_json!)).toEqual({
      warehouse_id: { $in: [2, 3] },
    });
    const removed = await update({ filter_json: 'null' });
    expect(removed.subscription!.filter_json).toBeUndefined();
    const emptied = await update({ filter_json: '{}' });
    expect(emptied.subscription!.filter_json).toBeUndefined();
  });

  it('refuses a bad filter with a violation on `filter` naming the bad part, and stores nothing', async () => {
    const before = (
      await as(TENANT, () => suite.h.client.call.listSubscriptions({ page: 1, per_page: 100 }))
    ).total;
    for (const [filter, message] of [
      [{ sku: { $regex: '^A' } }, '$regex at filter.sku is not supported'],
      [{ $where: 'true' }, '$where is not supported at the filter'],
      [{ 'a.__proto__.b': 1 }, 'is not a field path'],
      [[1], 'The filter must be a JSON object'],
    ] as const) {
      const failure = await failureOf(
        as(TENANT, () =>
          suite.h.client.call.createSubscription({
            url: `${suite.receiver.url}/refused`,
            events: [ADJUSTED],
            input_violations: [],
            filter_json: JSON.stringify(filter),
          }),
        ),
      );
      expect(failure.fieldViolations).toHaveLength(1);
      expect(failure.fieldViolations[0]!.field).toBe('filter');
      expect(failure.fieldViolations[0]!.description).toContain(message);
    }
    const notJson = await failureOf(
      as(TENANT, () =>
        suite.h.client.call.createSubscription({
          url: `${suite.receiver.url}/refused`,
          events: [ADJUSTED],
          input_violations: [],
          filter_json: '{"a":',
        }),
      ),
    );
    expect(notJson.fieldViolations).toEqual([
      { field: 'filter', description: 'The filter must be JSON.' },
    ]);
    expect(
      (await as(TENANT, () => suite.h.client.call.listSubscriptions({ page: 1, per_page: 100 })))
        .total,
    ).toBe(before);
  });
});

describe('a content filter and the per-tenant cap', () => {
  // Three deliveries in the cap's one minute (pinned, so the run cannot straddle two).
  const suite = useReceiverSuite({
    env: { WEBHOOK_RATE_PER_MINUTE: '3' },
    bootstrap: { clock: () => 1_000 },
  });

  it('counts only the events the filter lets through: ten left out spend none of the cap', async () => {
    const { subscription } = await as(TENANT, () =>
      suite.h.client.call.createSubscription({
        url: `${suite.receiver.url}/capped`,
        events: [ADJUSTED],
        input_violations: [],
        filter_json: JSON.stringify({ warehouse_id: 3 }),
      }),
    );
    for (let n = 1; n <= 10; n++) await suite.h.publish(TENANT, ADJUSTED, { n, warehouse_id: 4 });
    for (let n = 11; n <= 13; n++) await suite.h.publish(TENANT, ADJUSTED, { n, warehouse_id: 3 });
    const { deliveries } = await waitFor(async () => {
      const log = await suite.deliveriesOf(TENANT, subscription!.id);
      return log.deliveries.length === 3 && log.deliveries.every((d) => d.status === 'succeeded')
        ? log
        : undefined;
    }, 'the three matching deliveries, sent');
    expect(deliveries).toHaveLength(3);
    expect(
      suite.receiver.requests.map(
        (request) => (JSON.parse(request.body) as { data: { n: number } }).data.n,
      ),
    ).toEqual(expect.arrayContaining([11, 12, 13]));
    expect(suite.receiver.requests).toHaveLength(3);
  });
});
