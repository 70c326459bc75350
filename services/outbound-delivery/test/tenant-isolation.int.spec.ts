import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo, ensureIndexes } from '@inventory/platform';
import { DeliveryRepository } from '../src/store/delivery-repository.js';
import { SubscriptionRepository } from '../src/store/subscription-repository.js';
import type { SubscriptionDocument } from '../src/store/subscription.js';

const [A, B] = ['tenant-iso-a', 'tenant-iso-b'];

/** Each repository, asked with tenant B's id, neither reads nor changes tenant A's documents. */
describe('outbound-delivery repositories keep tenants apart', () => {
  let infra: TestInfra;
  let connection: Connection;
  let subscriptions: SubscriptionRepository;
  let deliveries: DeliveryRepository;
  let owned: SubscriptionDocument;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('outbound_isolation'));
    subscriptions = new SubscriptionRepository(connection);
    deliveries = new DeliveryRepository(connection);
    await ensureIndexes(connection);
    owned = await subscriptions.create({
      tenant_id: A,
      url: 'https://receiver.example/a',
      events: ['parcel.delivered'],
      description: null,
      secrets: [],
    });
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it("neither reads nor changes another tenant's subscription", async () => {
    expect(await subscriptions.find(B, owned.id)).toBeNull();
    expect((await subscriptions.listPage(B, 1, 10)).total).toBe(0);
    expect(await subscriptions.activeFor(B, 'parcel.delivered')).toEqual([]);
    expect(await subscriptions.update(B, owned.id, { description: 'b' })).toBeNull();
    expect(await subscriptions.recordFailure(B, owned.id)).toBe(0);
    expect(await subscriptions.deactivate(B, owned.id, 'gone')).toBe(false);
    expect(await subscriptions.delete(B, owned.id)).toBe(false);
    expect(await subscriptions.find(A, owned.id)).toMatchObject({
      description: null,
      consecutive_failures: 0,
      is_active: true,
    });
  });

  it("neither reads, restarts, skips nor settles another tenant's delivery", async () => {
    const [delivery] = await deliveries.insertNew([
      {
        delivery_id: 'iso-delivery-1',
        tenant_id: A,
        subscription_id: owned.id,
        event: 'parcel.delivered',
        dedupe_key: 'iso-delivery-1',
        body: '{}',
        occurred_at: new Date(),
      },
    ]);
    expect(await deliveries.find(B, owned.id, delivery!.delivery_id)).toBeNull();
    expect((await deliveries.listPage(B, owned.id, {}, 1, 10)).total).toBe(0);
    expect(await deliveries.restartCycle(B, delivery!.delivery_id)).toBeNull();
    await deliveries.skipPending(B, owned.id);
    await deliveries.settleMany([
      {
        delivery: { delivery_id: delivery!.delivery_id, tenant_id: B },
        changes: { status: 'failed' },
      },
    ]);
    expect(await deliveries.find(A, owned.id, delivery!.delivery_id)).toMatchObject({
      status: 'pending',
    });
  });
});
