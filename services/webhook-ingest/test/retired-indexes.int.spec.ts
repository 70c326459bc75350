import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { RETIRED_WEBHOOK_EVENT_INDEXES } from '../src/store/webhook-event.js';
import { startHarness, webhookEvents } from './harness.js';

describe('webhook-ingest start', () => {
  it('drops the retired claim index, and starts as well when there is none', async () => {
    const h = await startHarness();
    const connection = await mongoose
      .createConnection(h.env.MONGO_URL!, { dbName: h.env.MONGO_DB })
      .asPromise();
    try {
      await webhookEvents(connection).createIndex({ state: 1, lease_until: 1 });
      const names = async () => (await webhookEvents(connection).indexes()).map((i) => i.name);
      expect(await names()).toContain(RETIRED_WEBHOOK_EVENT_INDEXES[0]);
      await (await bootstrap(h.env)).stop();
      expect(await names()).not.toContain(RETIRED_WEBHOOK_EVENT_INDEXES[0]);
      expect(await names()).toContain('state_1_lease_until_1_id_1');
      await (await bootstrap(h.env)).stop();
    } finally {
      await connection.close();
      await h.fake.stop();
      await h.infra.stop();
    }
  });
});
