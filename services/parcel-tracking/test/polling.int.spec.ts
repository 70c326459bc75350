import { describe, expect, it } from 'vitest';
import { as, GOOD_KEY, OTHER_KEY } from './harness.js';
import { useTrackingSuite } from './tracking-suite.js';
import { pollWorker, stopWorker, testProvider } from './workers.js';

const suite = useTrackingSuite();
const { newTenant, create, assign, change, rows, waitForRows, register } = suite;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Workers on an injected clock: staleness one minute, delivered rows stopped after a day. */
function workers(clock: { now: Date }) {
  const options = { owner: 'test', leaseMs: MINUTE, now: () => clock.now };
  return {
    poll: pollWorker(suite.h, { ...options, staleAfterMs: MINUTE }),
    stop: stopWorker(suite.h, { ...options, stopDeliveredAfterMs: DAY }),
  };
}

const simState = (number: string) =>
  suite.h.sim.trackings().find((tracking) => tracking.number === number);

describe('polling and stopping', () => {
  it('moves a row through the provider progression to delivered, then stops it after the configured time', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    const number = '1Z999AA10123456784';
    await assign(tenant, { trackable_id: 1, tracking_number: number });
    await waitForRows(tenant, id, () => true);
    await register();
    const clock = { now: new Date() };
    const { poll, stop } = workers(clock);

    const seen: Array<[string, string | null]> = [];
    for (let step = 0; step < 4; step++) {
      suite.h.sim.advance(number);
      clock.now = new Date(clock.now.getTime() + 2 * MINUTE);
      expect(await poll.runOnce()).toBe(1);
      const [row] = await rows(tenant, id);
      seen.push([row!.delivery_status, row!.sub_status]);
    }
    expect(seen).toEqual([
      ['info_received', 'InfoReceived'],
      ['in_transit', 'InTransit_PickedUp'],
      ['out_for_delivery', 'OutForDelivery_Other'],
      ['delivered', 'Delivered_Other'],
    ]);
    const [delivered] = await rows(tenant, id);
    expect(delivered).toMatchObject({
      carrier_code: 100002,
      carrier_name: 'UPS',
      stopped_at: null,
    });
    expect(delivered!.delivered_at).toEqual(delivered!.last_event_at);
    expect(delivered!.picked_up_at).not.toBeNull();
    expect(delivered!.estimated_delivery_at).not.toBeNull();
    expect(delivered!.latest_event_description).toBe('Delivered');
    // Delivered rows are no longer polled.
    clock.now = new Date(clock.now.getTime() + 2 * MINUTE);
    expect(await poll.runOnce()).toBe(0);

    // Not yet a day after delivery: nothing stops.
    expect(await stop.runOnce()).toBe(0);
    clock.now = new Date(Date.now() + 2 * DAY);
    expect(await stop.runOnce()).toBe(1);
    const [stopped] = await rows(tenant, id);
    expect(stopped!.stopped_at).not.toBeNull();
    expect(stopped!.provider_stopped_at).not.toBeNull();
    expect(simState(number)!.tracking_state).toBe('Stopped');
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.status_counts!.delivered).toBe(1);
    expect(dashboard!.last_event_at).toEqual(delivered!.last_event_at);
  });

  it('a fresh row is not polled again before the staleness time; the kill switch stops polling', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await assign(tenant, { trackable_id: 1, tracking_number: 'JJD0123456789' });
    await waitForRows(tenant, id, () => true);
    await register();
    const clock = { now: new Date() };
    const { poll } = workers(clock);
    expect(await poll.runOnce()).toBe(1);
    expect(await poll.runOnce()).toBe(0);
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        is_automatic_sync_enabled: false,
      }),
    );
    clock.now = new Date(clock.now.getTime() + 2 * MINUTE);
    expect(await poll.runOnce()).toBe(0);
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        is_automatic_sync_enabled: true,
      }),
    );
    expect(await poll.runOnce()).toBe(1);
  });

  it('a changed number stops the old tracking at the provider', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await assign(tenant, {
      trackable_type: 'rma',
      trackable_id: 5,
      tracking_number: 'XX123456789GB',
    });
    await waitForRows(tenant, id, () => true);
    await register();
    await change(tenant, 'rma', 5, 'XX987654321GB');
    await waitForRows(tenant, id, (row) => row.tracking_number === 'XX987654321GB');
    const { stop } = workers({ now: new Date() });
    expect(await stop.runOnce()).toBe(1);
    expect(simState('XX123456789GB')!.tracking_state).toBe('Stopped');
    const old = (await rows(tenant, id)).find((row) => row.tracking_number === 'XX123456789GB')!;
    expect(old.provider_stopped_at).not.toBeNull();
    // The new number is registered by the next registration pass, the old one never again.
    await register();
    expect(simState('XX987654321GB')).toMatchObject({ tracking_state: 'Tracking' });
    expect(await stop.runOnce()).toBe(0);
  });

  it('a changed number registered under a key rotated out since is stopped with that key', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await assign(tenant, {
      trackable_type: 'rma',
      trackable_id: 6,
      tracking_number: 'XX111111111GB',
    });
    await waitForRows(tenant, id, () => true);
    await register();
    expect(simState('XX111111111GB')).toMatchObject({ api_key: GOOD_KEY });
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, api_key: OTHER_KEY }),
    );
    await change(tenant, 'rma', 6, 'XX222222222GB');
    await waitForRows(tenant, id, (row) => row.tracking_number === 'XX222222222GB');
    const { stop } = workers({ now: new Date() });
    expect(await stop.runOnce()).toBe(1);
    expect(simState('XX111111111GB')!.tracking_state).toBe('Stopped');
  });

  it('a number changed before it was registered is marked stopped there, without a call to the provider', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await assign(tenant, {
      trackable_type: 'rma',
      trackable_id: 6,
      tracking_number: 'XX111111111GB',
    });
    await waitForRows(tenant, id, () => true);
    await change(tenant, 'rma', 6, 'XX222222222GB');
    await waitForRows(tenant, id, (row) => row.tracking_number === 'XX222222222GB');
    // Nothing answers there: a call to the provider would fail the pass and leave the row due.
    const stop = stopWorker(suite.h, {
      owner: 'test',
      leaseMs: MINUTE,
      stopDeliveredAfterMs: DAY,
      provider: testProvider(suite.h, { baseUrl: 'http://127.0.0.1:9' }),
    });
    expect(await stop.runOnce()).toBe(1);
    const old = (await rows(tenant, id)).find((row) => row.tracking_number === 'XX111111111GB')!;
    expect(old).toMatchObject({ active: false, registered_at: null });
    expect(old.provider_stopped_at).not.toBeNull();
    expect(simState('XX111111111GB')).toBeUndefined();
    // It has left the queue; the new number waits for registration, not for a stop.
    expect(await stop.runOnce()).toBe(0);
  });
});
