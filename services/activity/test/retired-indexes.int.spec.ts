import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import mongoose, { type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { RETIRED_ACTIVITY_INDEXES } from '../src/store/activity.js';
import { RETIRED_ALERT_INDEXES } from '../src/store/alert.js';

const OLD_ID_INDEX = 'tenant_id_1_id_1';

const activity = (id: number, sourceId: string) => ({
  id,
  tenant_id: 'tenant-a',
  source_id: sourceId,
  event: 'product.created',
  description: '',
  created_at: new Date(),
});
const alert = (id: number, key: string) => ({
  id,
  tenant_id: 'tenant-a',
  key,
  kind: 'quota',
  priority: 'normal',
  title: 'An alert',
  created_at: new Date(),
});

/**
 * ADR 0237: the unique id indexes, which a sharded cluster refuses (they do not start with the
 * shard key), are dropped at start; the unique indexes led by the shard key replace them.
 */
describe('activity start: unique indexes led by the shard key', () => {
  let infra: TestInfra;
  let db: Connection;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    env = {
      MONGO_URL: infra.mongoUrl,
      NATS_URL: infra.natsUrl,
      MONGO_DB: infra.dbName('activity'),
      LOG_LEVEL: 'silent',
    };
    db = await mongoose.createConnection(infra.mongoUrl, { dbName: env.MONGO_DB }).asPromise();
  });
  afterAll(async () => {
    await db?.close();
    await infra?.stop();
  });

  const names = async (collection: string) =>
    (await db.collection(collection).indexes()).map((index) => index.name);

  it('lists the unique id index as retired in both collections', () => {
    expect(RETIRED_ACTIVITY_INDEXES).toContain(OLD_ID_INDEX);
    expect(RETIRED_ALERT_INDEXES).toContain(OLD_ID_INDEX);
  });

  it('drops the unique id indexes a previous release built, and keeps refusing duplicates', async () => {
    // The collections as the previous release left them: rows, and the unique id index.
    await db.collection('activities').insertOne(activity(1, 'event-1'));
    await db.collection('alerts').insertOne(alert(1, 'key-1'));
    for (const collection of ['activities', 'alerts'])
      await db.collection(collection).createIndex({ tenant_id: 1, id: 1 }, { unique: true });
    expect(await names('activities')).toContain(OLD_ID_INDEX);
    expect(await names('alerts')).toContain(OLD_ID_INDEX);

    await (await bootstrap(env)).stop();

    const activities = await db.collection('activities').indexes();
    expect(activities.map((index) => index.name)).not.toContain(OLD_ID_INDEX);
    expect(activities).toContainEqual(
      expect.objectContaining({ key: { tenant_id: 1, source_id: 1, id: 1 }, unique: true }),
    );
    const alerts = await db.collection('alerts').indexes();
    expect(alerts.map((index) => index.name)).not.toContain(OLD_ID_INDEX);
    expect(alerts).toContainEqual(
      expect.objectContaining({ key: { tenant_id: 1, key: 1, id: 1 }, unique: true }),
    );
    // Marking an alert read still finds it by id through an index, now a plain one.
    expect(alerts).toContainEqual(expect.objectContaining({ key: { tenant_id: 1, id: -1 } }));
    expect(alerts.find((index) => index.key.id === -1)?.unique).toBeUndefined();

    await expect(
      db.collection('activities').insertOne(activity(1, 'event-1')),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(db.collection('alerts').insertOne(alert(1, 'key-1'))).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('starts as well when there is nothing left to drop', async () => {
    await (await bootstrap(env)).stop();
    expect(await names('activities')).toContain('tenant_id_1_source_id_1_id_1');
    expect(await names('alerts')).toContain('tenant_id_1_key_1_id_1');
  });
});
