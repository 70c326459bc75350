import { describe, expect, it } from 'vitest';
import { RETIRED_TRACKING_INDEXES } from '../src/store/tracking.js';
import { startReplica } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();

/**
 * ADR 0237: the unique `{id}` index, which a sharded cluster refuses (it does not start with the
 * shard key), is dropped at start; a unique index led by the shard key replaces it.
 */
describe('tracking rows: unique indexes led by the shard key', () => {
  it('drops the unique id index a previous release built, and refuses a duplicate row', async () => {
    const rows = suite.h.stored('tracking_rows');
    const names = async () => (await rows.indexes()).map((index) => index.name);
    const row = {
      id: 900_001,
      tenant_id: suite.newTenant(),
      integration_instance_id: 1,
      tracking_number: '1ZUNIQUE0001',
      active: false,
      created_at: new Date(),
      updated_at: new Date(),
    };
    await rows.insertOne({ ...row });
    await rows.createIndex({ id: 1 }, { unique: true });
    expect(RETIRED_TRACKING_INDEXES).toContain('id_1');
    expect(await names()).toContain('id_1');

    const replica = await startReplica(suite.h);
    await replica.stop();

    const indexes = await rows.indexes();
    expect(indexes.map((index) => index.name)).not.toContain('id_1');
    expect(indexes).toContainEqual(
      expect.objectContaining({
        key: {
          tenant_id: 1,
          integration_instance_id: 1,
          tracking_number: 1,
          id: 1,
        },
        unique: true,
      }),
    );
    // A row is still found by id through an index, now a plain one.
    const byId = indexes.find((index) => index.name === 'tenant_id_1_id_1');
    expect(byId).toMatchObject({ key: { tenant_id: 1, id: 1 } });
    expect(byId?.unique).toBeUndefined();
    // An inactive row (which the one-active-row rule leaves alone) stored twice: refused by the new index.
    await expect(rows.insertOne({ ...row })).rejects.toMatchObject({
      code: 11000,
      message: expect.stringContaining(
        'tenant_id_1_integration_instance_id_1_tracking_number_1_id_1',
      ),
    });

    const again = await startReplica(suite.h);
    await again.stop();
    expect(await names()).not.toContain('id_1');
  });
});
