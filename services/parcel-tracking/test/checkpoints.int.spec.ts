import { status } from '@grpc/grpc-js';
import type {
  ProviderCheckpoint,
  ProviderTrackingUpdate,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';
import { describe, expect, it } from 'vitest';
import { as, failureOf } from './harness.js';
import { useTrackingSuite } from './tracking-suite.js';
import { pollWorker } from './workers.js';

const suite = useTrackingSuite();
const { newTenant, create, assign, waitForRows, register } = suite;

const MINUTE = 60_000;
let webhookEventId = 50_000;
const t = (minute: number) => new Date(Date.UTC(2026, 0, 10, 12, minute));
const checkpoint = (
  minute: number,
  over: Partial<ProviderCheckpoint> = {},
): ProviderCheckpoint => ({
  occurred_at: t(minute),
  description: `Scan ${minute}`,
  location: `Hub ${minute}`,
  sub_status: 'InTransit_Other',
  stage: '',
  ...over,
});
/** A push as the provider sends it: the latest event and the whole history, newest first. */
const push = (minutes: number[], number = 'CHECK0001'): ProviderTrackingUpdate => {
  const history = [...minutes].sort((a, b) => b - a).map((minute) => checkpoint(minute));
  return {
    event_type: 'TRACKING_UPDATED',
    tracking_number: number,
    carrier_code: 3011,
    provider_status: 'InTransit',
    provider_sub_status: 'InTransit_Other',
    latest_event_at: history[0]!.occurred_at,
    latest_event_description: history[0]!.description,
    latest_event_location: history[0]!.location,
    checkpoints: history,
  };
};

const apply = (tenant: string, id: number, update: ProviderTrackingUpdate) =>
  as(tenant, () =>
    suite.h.client.call.applyTrackingUpdate({
      integration_instance_id: id,
      webhook_event_id: ++webhookEventId,
      update,
    }),
  );
const applyBatch = (tenant: string, id: number, updates: ProviderTrackingUpdate[]) =>
  as(tenant, () =>
    suite.h.client.call.applyTrackingUpdates({
      updates: updates.map((update) => ({
        integration_instance_id: id,
        webhook_event_id: ++webhookEventId,
        update,
      })),
    }),
  );
const timeline = async (tenant: string, id: number, trackingId: number) =>
  (
    await as(tenant, () =>
      suite.h.client.call.getTracking({ integration_instance_id: id, id: trackingId }),
    )
  ).checkpoints;

async function tracked(tenant: string, number = 'CHECK0001') {
  const id = await create(tenant);
  await assign(tenant, { trackable_id: 1, tracking_number: number });
  const [row] = await waitForRows(tenant, id, () => true);
  return { id, trackingId: row!.id };
}

describe('carrier checkpoints (ADR 0216)', () => {
  it('keeps every checkpoint once, newest first, whatever repeats and out-of-order pushes arrive', async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    await apply(tenant, id, push([1, 2, 3]));
    // The same push again (a provider retry), then an older one arriving late: both add nothing.
    await apply(tenant, id, push([1, 2, 3]));
    await apply(tenant, id, push([1, 2]));
    expect((await timeline(tenant, id, trackingId)).map((c) => c.occurred_at)).toEqual([
      t(3),
      t(2),
      t(1),
    ]);
    // A newer push, then one that missed a middle checkpoint the carrier added late.
    await apply(tenant, id, push([1, 2, 3, 5]));
    const late = push([1, 2, 3, 4]);
    expect((await apply(tenant, id, late)).outcome).toBe(5 /* stale: the row never goes back */);
    const kept = await timeline(tenant, id, trackingId);
    expect(kept.map((c) => c.occurred_at)).toEqual([t(5), t(4), t(3), t(2), t(1)]);
    expect(kept[0]).toEqual({
      occurred_at: t(5),
      description: 'Scan 5',
      location: 'Hub 5',
      status: 'in_transit',
      sub_status: 'InTransit_Other',
      stage: '',
    });
  });

  it('keeps them once when repeats race in one batch, in any order', async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    await applyBatch(tenant, id, [push([1, 2, 3, 4]), push([1, 2]), push([1, 2, 3, 4]), push([3])]);
    expect((await timeline(tenant, id, trackingId)).map((c) => c.occurred_at)).toEqual([
      t(4),
      t(3),
      t(2),
      t(1),
    ]);
  });

  it(`keeps only the newest ${TRACKING_CHECKPOINTS_MAX} of a row`, async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    const minutes = Array.from({ length: TRACKING_CHECKPOINTS_MAX + 20 }, (_, index) => index);
    await apply(tenant, id, push(minutes.slice(0, 60)));
    await apply(tenant, id, push(minutes));
    const kept = await timeline(tenant, id, trackingId);
    expect(kept).toHaveLength(TRACKING_CHECKPOINTS_MAX);
    expect(kept[0]!.occurred_at).toEqual(t(minutes.at(-1)!));
    expect(kept.at(-1)!.occurred_at).toEqual(t(20));
  });

  it('skips checkpoints without a valid time and strips NUL bytes from their text', async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    const update = push([1]);
    update.checkpoints.push(
      { ...checkpoint(2), occurred_at: undefined },
      checkpoint(3, { description: 'bad\u0000text', location: '__proto__' }),
    );
    await apply(tenant, id, update);
    const kept = await timeline(tenant, id, trackingId);
    expect(kept.map((c) => [c.description, c.location])).toEqual([
      ['badtext', '__proto__'],
      ['Scan 1', 'Hub 1'],
    ]);
  });

  it('a row keeps its history CHECKPOINT_RETENTION_DAYS (365) after its last new checkpoint', async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    await apply(tenant, id, push([1]));
    const first = await suite.h.stored('tracking_checkpoints').findOne({ tracking_id: trackingId });
    await apply(tenant, id, push([1, 2]));
    const stored = await suite.h
      .stored('tracking_checkpoints')
      .find({ tenant_id: tenant, tracking_id: trackingId })
      .toArray();
    // Every checkpoint of the row counts from its newest write: the history goes as one.
    expect(new Set(stored.map((doc) => (doc.touched_at as Date).getTime())).size).toBe(1);
    expect((stored[0]!.touched_at as Date).getTime()).toBeGreaterThanOrEqual(
      (first!.touched_at as Date).getTime(),
    );
    const indexes = await suite.h.stored('tracking_checkpoints').indexes();
    expect(indexes.find((index) => index.key.touched_at === 1)?.expireAfterSeconds).toBe(
      365 * 24 * 3600,
    );
  });

  it("another tenant's id is NOT_FOUND, and reads none of the checkpoints", async () => {
    const tenant = newTenant();
    const { id, trackingId } = await tracked(tenant);
    await apply(tenant, id, push([1]));
    const other = newTenant();
    const otherInstance = await create(other);
    const failure = await failureOf(
      as(other, () =>
        suite.h.client.call.getTracking({ integration_instance_id: otherInstance, id: trackingId }),
      ),
    );
    expect(failure.code).toBe(status.NOT_FOUND);
  });

  it('keeps the event history gettrackinfo reports when polling', async () => {
    const tenant = newTenant();
    const number = '1Z999AA10123456799';
    const { id, trackingId } = await tracked(tenant, number);
    await register();
    const clock = { now: new Date() };
    const poll = pollWorker(suite.h, {
      owner: 'test',
      leaseMs: MINUTE,
      now: () => clock.now,
      staleAfterMs: MINUTE,
    });
    suite.h.sim.advance(number);
    suite.h.sim.advance(number);
    clock.now = new Date(clock.now.getTime() + 2 * MINUTE);
    expect(await poll.runOnce()).toBeGreaterThanOrEqual(1);
    suite.h.sim.advance(number);
    clock.now = new Date(clock.now.getTime() + 2 * MINUTE);
    expect(await poll.runOnce()).toBeGreaterThanOrEqual(1);
    const events = suite.h.sim.trackings().find((item) => item.number === number)!.track_info
      .tracking.providers[0]!.events;
    const kept = await timeline(tenant, id, trackingId);
    expect(kept.map((c) => [c.occurred_at!.toISOString(), c.description, c.sub_status])).toEqual(
      events.map((event) => [
        new Date(event.time_utc).toISOString(),
        event.description,
        event.sub_status,
      ]),
    );
    expect(kept.map((c) => c.status)).toEqual(['out_for_delivery', 'in_transit', 'info_received']);
  });
});
