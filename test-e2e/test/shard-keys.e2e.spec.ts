import { createHash } from 'node:crypto';
import mongoose from 'mongoose';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@inventory/local-infra';
import { startEmbeddedMongo, type EmbeddedMongo } from '@inventory/mongo-embedded';
import { connectNats, EventPublisher } from '@inventory/platform';
import {
  PLACEMENT,
  serviceOf,
  shardKeyProblems,
  uniqueIndexesOffShardKey,
  watchCommands,
  type SeenCommand,
} from '../src/fixtures/shard-keys.js';
import { productCreatedEntry } from '../src/fixtures/product-created.js';
import {
  PARCEL,
  PROVIDER_KEY,
  ROUTE_TABLE,
  methodOf,
  populatedTenant,
  send,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from './resilience/harness.js';

/** `url` with the driver's command monitoring on, for every client the services make from it. */
const monitored = (url: string) =>
  `${url}${url.includes('?') ? '&' : /^mongodb(\+srv)?:\/\/[^/]+\//.test(url) ? '?' : '/?'}monitorCommands=true`;

/**
 * The proof behind deploy/SCALING.md's shard keys: every command the services send to a sharded
 * collection, while the whole system serves one tenant through every route of the gateway, an
 * inbound webhook and an outbound delivery, names the collection's shard-key prefix (the tenant)
 * as one value, so a sharded cluster routes it to one shard. The cross-tenant work queues are the
 * named exceptions (CROSS_TENANT_QUERIES). The services' own connections are watched through the
 * MongoDB driver's command monitoring, switched on by the connection string alone.
 */
describe('shard keys: every query reaching a sharded collection carries its tenant', () => {
  let mongo: EmbeddedMongo | undefined;
  let r: ResilienceSystem;
  let tenant: PopulatedTenant;
  let nats: NatsConnection;
  let seen: SeenCommand[];
  const previousUrl = process.env.MONGO_URL;

  beforeAll(async () => {
    if (!previousUrl) mongo = await startEmbeddedMongo({ port: 0 });
    process.env.MONGO_URL = monitored(previousUrl ?? mongo!.url);
    try {
      r = await startResilienceSystem();
    } finally {
      if (previousUrl === undefined) delete process.env.MONGO_URL;
      else process.env.MONGO_URL = previousUrl;
    }
    seen = watchCommands(mongoose.connections);
    tenant = await populatedTenant(r);
    nats = await connectNats(r.system.infra.natsUrl, 'e2e-shard-keys');
  });
  afterAll(async () => {
    await nats?.drain();
    await r?.stop();
    await mongo?.stop();
  });

  it('sees the services send their commands (the watch is live)', () => {
    expect(seen.some((command) => command.collection.startsWith('identity.'))).toBe(true);
  });

  it('names its tenant in every query of every route, the webhook path and a delivery', async () => {
    const routes = Object.keys(ROUTE_TABLE);
    // Reads first, then writes, then deletions, so each finds the rows the others left.
    const order = (route: string) =>
      ({ GET: 0, HEAD: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 })[methodOf(route)] ?? 1;
    // An inbound webhook, stored and processed.
    const body = JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: {
        number: '1ZSHARDKEY0001',
        carrier: 100002,
        track_info: { latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' } },
      },
    });
    const pushed = await send(r, tenant, 'POST /webhooks/parcel-tracking/:token', {
      body,
      headers: {
        'content-type': 'application/json',
        sign: createHash('sha256').update(`${body}/${PROVIDER_KEY}`).digest('hex'),
      },
    });
    expect(pushed.status).toBe(200);
    // An outbound delivery and the activity it leaves.
    const { type, event } = productCreatedEntry({
      tenantId: tenant.fixture.tenant.id,
      product: { product_id: 1, sku: 'SKU-1', name: 'A product' },
    });
    await new EventPublisher(nats.jetstream()).publish(type, event);
    await waitFor(
      async () => {
        const deliveries = await tenant.fixture.request(
          'GET',
          `/api/webhook-subscriptions/${tenant.subscriptionId}/deliveries`,
        );
        return (deliveries.body?.data?.length ?? 0) > 0 || undefined;
      },
      { timeoutMs: 30_000 },
    );
    await waitFor(
      async () => {
        const events = await tenant.fixture.request(
          'GET',
          `${PARCEL}/instances/${tenant.instanceId}/webhooks`,
        );
        const rows = (events.body?.data ?? []) as Array<{ result: string | null }>;
        return rows.some((row) => row.result !== null) || undefined;
      },
      { timeoutMs: 30_000 },
    );
    for (const route of routes.sort((a, b) => order(a) - order(b)))
      await send(r, tenant, route, {
        headers: methodOf(route) === 'GET' ? {} : { 'content-type': 'application/json' },
        ...(methodOf(route) === 'GET' || methodOf(route) === 'DELETE' ? {} : { body: '{}' }),
      });

    const reached = new Set(seen.map((command) => command.collection.split('.')[1]));
    expect(
      Object.keys(PLACEMENT).filter(
        (collection) =>
          'shardKey' in PLACEMENT[collection]! && !reached.has(collection.split('.')[1]),
      ),
    ).toEqual([]);
    expect(shardKeyProblems(seen)).toEqual([]);
  });

  it('finds every unique index of a sharded collection led by its shard key', async () => {
    const indexes: Parameters<typeof uniqueIndexesOffShardKey>[0] = {};
    for (const connection of mongoose.connections) {
      const db = connection.db;
      if (!db) continue;
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray())
        indexes[`${serviceOf(db.databaseName)}.${name}`] = await db.collection(name).indexes();
    }
    // The sharded collections with unique indexes of their own were read.
    expect(Object.keys(indexes)).toEqual(
      expect.arrayContaining([
        'activity.activities',
        'activity.alerts',
        'outbound_delivery.deliveries',
        'parcel_tracking.tracking_rows',
        'webhook_ingest.webhook_events',
      ]),
    );
    expect(uniqueIndexesOffShardKey(indexes)).toEqual([]);
  });

  it('reports a query without the tenant on a sharded collection, a row without it, and a write of a shard-key field not naming the whole key', async () => {
    const activity = mongoose.connections.find((connection) =>
      connection.db?.databaseName.startsWith('activity_'),
    )!;
    const since = seen.length;
    await activity.collection('activities').findOne({ id: 1 });
    await activity.collection('alerts').countDocuments({ tenant_id: { $ne: 'x' } });
    await activity
      .collection('alerts')
      .updateOne({ tenant_id: 'x', id: 1 }, { $set: { key: 'moved', read: true } });
    await activity
      .collection('alerts')
      .updateOne({ tenant_id: 'x', key: 'k' }, { $set: { key: 'moved' } });
    expect(shardKeyProblems(seen.slice(since))).toEqual([
      'activity.activities: find without tenant_id: ["id"]',
      'activity.alerts: aggregate without tenant_id: ["tenant_id"]',
      'activity.alerts: update writes shard-key field key without key in its filter',
    ]);
  });
});
