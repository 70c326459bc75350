import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useTrackingSuite } from './tracking-suite.js';
import { stopWorker, testProvider } from './workers.js';

const suite = useTrackingSuite();
const { newTenant, create, assign, change, remove, rows, waitForRows, register } = suite;

const DAY = 24 * 3600 * 1000;

const simState = (number: string) =>
  suite.h.sim.trackings().find((tracking) => tracking.number === number);

/** A tenant's instance on a fresh key (10 units), so the key's quota is this test's alone. */
async function fresh() {
  const key = `reuse_key_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  suite.h.sim.addKey({ key, quotaTotal: 10 });
  const tenant = newTenant();
  const id = await create(tenant, { api_key: key });
  const provider = testProvider(suite.h);
  return {
    tenant,
    id,
    used: async () => (await provider.getQuota(key)).used,
    saved: async () =>
      (await as(tenant, () => suite.h.client.call.getInstance({ id }))).dashboard!
        .quota_units_saved,
    /** One pass of the stopping worker: changed and removed numbers stopped at the provider. */
    stop: () =>
      stopWorker(suite.h, { owner: 'test', leaseMs: 60_000, stopDeliveredAfterMs: DAY }).runOnce(),
    active: async (number: string) =>
      (await rows(tenant, id)).find((row) => row.active && row.tracking_number === number),
  };
}

describe('registration reuse', () => {
  it('a removed and re-added number takes over its registration, without a second quota unit', async () => {
    const { tenant, id, used, saved, stop, active } = await fresh();
    const number = 'XX100000001GB';
    const track = () => assign(tenant, { trackable_id: 1, tracking_number: number });
    const removed = (count: number) =>
      waitForRows(tenant, id, (row) => row.tracking_number === number && !row.active, count);
    await track();
    await waitForRows(tenant, id, () => true);
    await register();
    expect(await used()).toBe(1);

    // Re-added before the stopping worker stopped it: handed over, no call at all.
    await remove(tenant, 'inbound_shipment', 1);
    await removed(1);
    await track();
    await waitForRows(tenant, id, (row) => row.tracking_number === number && row.active);
    await register();
    expect(await used()).toBe(1);
    expect(await active(number)).toMatchObject({ registered_at: expect.any(Date) });
    expect((await active(number))!.registration_reused_at).toBeInstanceOf(Date);
    // The old row gave its registration away: the stopping worker leaves the number tracked.
    expect(await stop()).toBe(0);
    expect(simState(number)).toMatchObject({ tracking_state: 'Tracking', retracked: false });
    expect(await saved()).toBe(1);

    // Re-added after it was stopped at the provider: a free retrack.
    await remove(tenant, 'inbound_shipment', 1);
    await removed(2);
    expect(await stop()).toBe(1);
    expect(simState(number)).toMatchObject({ tracking_state: 'Stopped' });
    await track();
    await waitForRows(tenant, id, (row) => row.tracking_number === number && row.active);
    await register();
    expect(await used()).toBe(1);
    expect(simState(number)).toMatchObject({ tracking_state: 'Tracking', retracked: true });
    expect(await saved()).toBe(2);

    // The provider retracks a number once: the third time it is deleted and registered (a unit).
    await remove(tenant, 'inbound_shipment', 1);
    await removed(3);
    expect(await stop()).toBe(1);
    await track();
    await waitForRows(tenant, id, (row) => row.tracking_number === number && row.active);
    await register();
    expect(await used()).toBe(2);
    expect(simState(number)).toMatchObject({ tracking_state: 'Tracking', retracked: false });
    const row = await active(number);
    expect(row).toMatchObject({ registration_reused_at: null });
    expect(row!.registered_at).toBeInstanceOf(Date);
    expect(await saved()).toBe(2);
  });

  it('a number changed A→B→A spends a unit for B only', async () => {
    const { tenant, id, used, saved, stop, active } = await fresh();
    const [a, b] = ['XX200000001GB', 'XX200000002GB'];
    await assign(tenant, { trackable_type: 'rma', trackable_id: 4, tracking_number: a });
    await waitForRows(tenant, id, () => true);
    await register();
    expect(await used()).toBe(1);

    await change(tenant, 'rma', 4, b);
    await waitForRows(tenant, id, (row) => row.tracking_number === b);
    await register();
    expect(await used()).toBe(2);

    await change(tenant, 'rma', 4, a);
    await waitForRows(tenant, id, (row) => row.tracking_number === a && row.active);
    await register();
    expect(await used()).toBe(2);
    expect((await active(a))!.registered_at).toBeInstanceOf(Date);
    // B is stopped at the provider, A (taken over) is not.
    expect(await stop()).toBe(1);
    expect(simState(a)).toMatchObject({ tracking_state: 'Tracking' });
    expect(simState(b)).toMatchObject({ tracking_state: 'Stopped' });

    // And back to B: retracked.
    await change(tenant, 'rma', 4, b);
    await waitForRows(tenant, id, (row) => row.tracking_number === b && row.active);
    await register();
    expect(await used()).toBe(2);
    expect(simState(b)).toMatchObject({ tracking_state: 'Tracking', retracked: true });
    expect(await saved()).toBe(2);
    // Re-used registrations spent nothing: the forecast's rate counts the two units only.
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    // 2 units over 13 to 14 days; counting the 2 re-used ones too would make it twice that.
    expect([0.14, 0.15]).toContain(dashboard!.quota_forecast!.daily_rate);
  });

  it('a number registered by another row of the instance under another key costs a unit', async () => {
    const { tenant, id, used } = await fresh();
    const number = 'XX300000001GB';
    await assign(tenant, { trackable_id: 9, tracking_number: number });
    await waitForRows(tenant, id, () => true);
    await register();
    const other = `reuse_other_${Date.now()}`;
    suite.h.sim.addKey({ key: other, quotaTotal: 10 });
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, api_key: other }),
    );
    await remove(tenant, 'inbound_shipment', 9);
    await waitForRows(tenant, id, (row) => !row.active);
    await assign(tenant, { trackable_id: 9, tracking_number: number });
    await waitForRows(tenant, id, (row) => row.active);
    await register();
    expect(await used()).toBe(1);
    expect((await testProvider(suite.h).getQuota(other)).used).toBe(1);
  });
});
