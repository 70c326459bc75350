import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { newWebhookEventRow, RETIRED_WEBHOOK_EVENT_INDEXES } from '../src/store/webhook-event.js';
import { startHarness, webhookEvents } from './harness.js';
import { receivedEvent } from './rows.js';

describe('webhook-ingest start', () => {
  it('drops the retired indexes, and starts as well when there is none', async () => {
    const h = await startHarness();
    const connection = await mongoose
      .createConnection(h.env.MONGO_URL!, { dbName: h.env.MONGO_DB })
      .asPromise();
    try {
      const rows = webhookEvents(connection);
      // A row, and the indexes of the releases before: the claim's, and the unique id and dedupe
      // key indexes a sharded cluster refuses (they do not start with the shard key, ADR 0237).
      const row = {
        ...newWebhookEventRow(receivedEvent('tenant-a', '1ZRETIRED'), 1),
        dedupe_key: 'tenant-a:1:1ZRETIRED',
        state: 'done' as const,
      };
      await rows.insertOne({ ...row });
      await rows.createIndex({ state: 1, lease_until: 1 });
      await rows.createIndex({ id: 1 }, { unique: true });
      await rows.createIndex({ dedupe_key: 1 }, { unique: true });
      const names = async () => (await rows.indexes()).map((i) => i.name);
      expect(RETIRED_WEBHOOK_EVENT_INDEXES).toEqual([
        'state_1_lease_until_1',
        'id_1',
        'dedupe_key_1',
      ]);
      expect(await names()).toEqual(expect.arrayContaining(RETIRED_WEBHOOK_EVENT_INDEXES));

      await (await bootstrap(h.env)).stop();

      const indexes = await rows.indexes();
      for (const retired of RETIRED_WEBHOOK_EVENT_INDEXES)
        expect(indexes.map((index) => index.name)).not.toContain(retired);
      expect(indexes.map((index) => index.name)).toContain('state_1_lease_until_1_id_1');
      const shardKey = { tenant_id: 1, integration_instance_id: 1, dedupe_key: 1 };
      expect(indexes).toContainEqual(expect.objectContaining({ key: shardKey, unique: true }));
      expect(indexes).toContainEqual(
        expect.objectContaining({ key: { ...shardKey, id: 1 }, unique: true }),
      );
      // Rows are still found by id (claims, reprocess walks) through an index, now a plain one.
      const byId = indexes.find((index) => Object.keys(index.key)[0] === 'id');
      expect(byId).toMatchObject({ key: { id: 1, tenant_id: 1 } });
      expect(byId?.unique).toBeUndefined();
      // The same payload identity for the same instance is refused, as `{dedupe_key}` refused it.
      await expect(rows.insertOne({ ...row, id: 2 })).rejects.toMatchObject({ code: 11000 });

      await (await bootstrap(h.env)).stop();
      expect(await names()).not.toContain('dedupe_key_1');
    } finally {
      await connection.close();
      await h.fake.stop();
      await h.infra.stop();
    }
  });
});
