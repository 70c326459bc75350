import { status } from '@grpc/grpc-js';
import { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { afterEach, describe, expect, it } from 'vitest';
import { as, eventually, failureOf, startReplica } from './harness.js';
import { useTrackingSuite } from './tracking-suite.js';

// A TTL no test run outlasts, so "still kept" is never a race with the clock.
const suite = useTrackingSuite({ TRACKING_SCOPE_CACHE_TTL_MS: '600000' });
const { newTenant, create, pendingRows } = suite;

const listedNumbers = async (tenant: string, id: number, client = suite.h.client) => {
  const { trackings } = await as(tenant, () =>
    client.call.listTrackings(ListTrackingsRequest.fromPartial({ integration_instance_id: id })),
  );
  return trackings.map((row) => row.tracking_number).sort();
};
const listFailure = async (tenant: string, id: number, client = suite.h.client) =>
  (await failureOf(listedNumbers(tenant, id, client))).code;

const replicas: Array<{ stop(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
});

describe('the tracking scope kept per replica (ADR 0240)', () => {
  it('reads the instance and the history once, and again after its own replica changes them', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, ['SCOPE000001']);
    expect(await listedNumbers(tenant, id)).toEqual(['SCOPE000001']);

    // A disconnected instance remembered behind this replica's back (another replica's write):
    // the kept scope does not list its rows yet.
    await pendingRows(tenant, id + 1_000, ['HISTORY0001']);
    await suite.h
      .stored('instance_history')
      .insertOne({ tenant_id: tenant, instance_id: id + 1_000, disconnected_at: new Date() });
    expect(await listedNumbers(tenant, id)).toEqual(['SCOPE000001']);

    // A change written through this replica drops the tenant's scopes at once.
    await as(tenant, () =>
      suite.h.client.call.updateInstance({ input_violations: [], id, name: 'Renamed' }),
    );
    expect(await listedNumbers(tenant, id)).toEqual(['HISTORY0001', 'SCOPE000001']);
  });

  it('answers 404 at once after its own delete, and keeps no unknown instance', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    expect(await listedNumbers(tenant, id)).toEqual([]);
    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));
    expect(await listFailure(tenant, id)).toBe(status.NOT_FOUND);

    // The next instance's id was asked for before it existed: the 404 was not kept.
    expect(await listFailure(tenant, id + 1)).toBe(status.NOT_FOUND);
    const next = await create(tenant);
    expect(next).toBe(id + 1);
    expect(await listedNumbers(tenant, next)).toEqual([]);
  });

  it('keys the scope by tenant: another tenant asking for the same id gets 404', async () => {
    const owner = newTenant();
    const id = await create(owner);
    await pendingRows(owner, id, ['OWNED000001']);
    expect(await listedNumbers(owner, id)).toEqual(['OWNED000001']);
    expect(await listFailure(newTenant(), id)).toBe(status.NOT_FOUND);
    const [row] = await suite.h.stores.trackings.find(owner, id);
    const shipmentPage = await failureOf(
      as(newTenant(), () =>
        suite.h.client.call.getTracking({ integration_instance_id: id, id: row!.id }),
      ),
    );
    expect(shipmentPage.code).toBe(status.NOT_FOUND);
  });

  it("sees another replica's delete once the TTL has run out", async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, ['ELSEWHERE01']);
    const shortLived = await startReplica(suite.h, { TRACKING_SCOPE_CACHE_TTL_MS: '200' });
    replicas.push(shortLived);
    expect(await listedNumbers(tenant, id, shortLived.client)).toEqual(['ELSEWHERE01']);

    await as(tenant, () => suite.h.client.call.deleteInstance({ id }));
    await eventually(async () => {
      expect(await listFailure(tenant, id, shortLived.client)).toBe(status.NOT_FOUND);
    }, 10_000);
  });
});
