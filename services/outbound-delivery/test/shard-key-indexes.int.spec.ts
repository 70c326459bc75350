import type { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { domainEventEntry } from '@inventory/events';
import type { GrpcClientHandle } from '@inventory/platform';
import { withCommandMonitoring } from '@inventory/test-kit';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETIRED_DELIVERY_INDEXES } from '../src/store/delivery.js';
import { as, clientAt, waitFor, type Service } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-shard-key';

/** The row filters a command sends (one per statement); none for an insert or a cursor's next batch. */
function filtersOf(name: string, command: Record<string, unknown>): Array<Record<string, unknown>> {
  const of = (value: unknown) => (value ?? {}) as Record<string, unknown>;
  switch (name) {
    case 'find':
      return [of(command.filter)];
    case 'count':
    case 'distinct':
    case 'findAndModify':
      return [of(command.query)];
    case 'update':
      return (command.updates as Array<{ q: unknown }>).map((update) => of(update.q));
    case 'delete':
      return (command.deletes as Array<{ q: unknown }>).map((deletion) => of(deletion.q));
    case 'aggregate': {
      const first = (command.pipeline as Array<Record<string, unknown>>)[0];
      return [of(first?.$match)];
    }
    default:
      return [];
  }
}

/**
 * ADR 0237: `deliveries` is sharded on `{tenant_id, dedupe_key}` (deploy/SCALING.md). Its unique
 * indexes start with that key, and every look-up of a delivery names its tenant: fan-out's check
 * of the deliveries already recorded, and the worker's claim, whose only query without the tenant
 * is the schedule's (the due deliveries of every tenant).
 */
describe('deliveries keyed by their tenant', () => {
  const suite = useReceiverSuite();
  let replica: Service;
  let client: GrpcClientHandle<OutboundDeliveryServiceClient>;
  let db: Connection;
  const seen: Array<{ command: string; filter: Record<string, unknown> }> = [];
  const row = {
    delivery_id: 'retired-index-delivery',
    tenant_id: TENANT,
    // No subscription's: the subscription the test creates lists its own deliveries only.
    subscription_id: 999_999,
    event: 'sales_order.created',
    dedupe_key: 'retired-index-event:1',
    status: 'succeeded',
    created_at: new Date(),
  };

  beforeAll(async () => {
    await suite.h.stopReplicas();
    // The collection as the previous release left it: a row, and the unique indexes a sharded
    // cluster refuses (they do not start with the shard key).
    db = await mongoose
      .createConnection(suite.h.env.MONGO_URL!, { dbName: suite.h.env.MONGO_DB })
      .asPromise();
    const deliveries = db.collection('deliveries');
    await deliveries.insertOne({ ...row });
    await deliveries.createIndex({ delivery_id: 1 }, { unique: true });
    await deliveries.createIndex({ dedupe_key: 1 }, { unique: true });
    expect((await deliveries.indexes()).map((index) => index.name)).toEqual(
      expect.arrayContaining(RETIRED_DELIVERY_INDEXES),
    );
    replica = await suite.h.startReplica({
      MONGO_URL: withCommandMonitoring(suite.h.env.MONGO_URL!),
    });
    replica.mongo.getClient().on('commandStarted', (event) => {
      const command = event.command as Record<string, unknown>;
      if (command[event.commandName] !== 'deliveries') return;
      for (const filter of filtersOf(event.commandName, command))
        seen.push({ command: event.commandName, filter });
    });
    client = clientAt(replica.grpc!.address);
  });
  afterAll(async () => {
    client?.close();
    await db?.close();
  });

  it('drops {delivery_id} and {dedupe_key} at start; the unique indexes led by the shard key refuse a duplicate', async () => {
    const deliveries = db.collection('deliveries');
    const indexes = await deliveries.indexes();
    for (const retired of RETIRED_DELIVERY_INDEXES)
      expect(indexes.map((index) => index.name)).not.toContain(retired);
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { tenant_id: 1, dedupe_key: 1 }, unique: true }),
    );
    expect(indexes).toContainEqual(
      expect.objectContaining({
        key: { tenant_id: 1, dedupe_key: 1, delivery_id: 1 },
        unique: true,
      }),
    );
    // A delivery by id is still found through an index, now a plain one led by the tenant.
    const byId = indexes.find((index) => index.name === 'tenant_id_1_delivery_id_1');
    expect(byId).toMatchObject({ key: { tenant_id: 1, delivery_id: 1 } });
    expect(byId?.unique).toBeUndefined();
    // One delivery per event and subscription, whatever its id.
    await expect(deliveries.insertOne({ ...row, delivery_id: 'another-id' })).rejects.toMatchObject(
      { code: 11000 },
    );
  });

  it('names the tenant in fan-out’s recorded check and in every claim of the worker', async () => {
    // The first attempt of each fails, so the worker's schedule claims its retry.
    const failedOnce = new Set<string>();
    suite.receiver.respond((request, response) => {
      const id = String(request.headers['x-svc-delivery-id']);
      if (failedOnce.has(id)) return response.writeHead(204).end();
      failedOnce.add(id);
      response.writeHead(500).end();
    });
    const created = await as(TENANT, () =>
      client.call.createSubscription({
        url: `${suite.receiver.url}/shard-key`,
        events: ['sales_order.created'],
        input_violations: [],
      }),
    );
    const subscriptionId = created.subscription!.id;
    const { type, event } = domainEventEntry({
      tenantId: TENANT,
      name: 'sales_order.created',
      data: { id: 1 },
    });
    await replica.publisher.publish(type, event);
    await as(TENANT, () => client.call.sendTestPing({ subscription_id: subscriptionId }));
    await waitFor(async () => {
      const { deliveries } = await as(TENANT, () =>
        client.call.listDeliveries({ subscription_id: subscriptionId, page: 1, per_page: 10 }),
      );
      return deliveries.length === 2 && deliveries.every((d) => d.status === 'succeeded')
        ? deliveries
        : undefined;
    }, 'the event’s delivery and the ping, each succeeded on its retry');

    const named = (filter: Record<string, unknown>) => typeof filter.tenant_id === 'string';
    // The schedule: the due deliveries of every tenant, read by `{status, next_attempt_at}`.
    const schedule = (filter: Record<string, unknown>) =>
      Object.keys(filter).sort().join() === 'lease_until,next_attempt_at,status';
    expect(seen.filter(({ filter }) => !named(filter) && !schedule(filter))).toEqual([]);
    // The checks above saw the paths they are about.
    expect(seen.some(({ filter }) => schedule(filter))).toBe(true);
    expect(
      seen.some(
        ({ command, filter }) => command === 'find' && named(filter) && 'dedupe_key' in filter,
      ),
    ).toBe(true);
    expect(
      seen.some(
        ({ command, filter }) =>
          command === 'update' &&
          named(filter) &&
          'delivery_id' in filter &&
          'lease_until' in filter,
      ),
    ).toBe(true);
  });
});
