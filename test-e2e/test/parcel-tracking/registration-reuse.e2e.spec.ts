import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken } from '../../src/fixtures/tenants.js';
import { npmRunEmit } from '../../src/fixtures/emit.js';
import { startSystem, type RunningSystem } from '../../src/system.js';
import { GOOD_KEY, PREFIX, validCreate } from './harness.js';

let sim: ProviderSimHandle;
let system: RunningSystem;

beforeAll(async () => {
  sim = await startProviderSim({ keys: [{ key: GOOD_KEY }], rateLimitPerSecond: 1000 });
  system = await startSystem({
    serviceEnv: {
      'parcel-tracking': {
        PROVIDER_BASE_URL: sim.url,
        PROVIDER_RATE_PER_SECOND: '1000',
        QUOTA_CACHE_TTL_MS: '0',
        // The registration and stopping workers every 100 ms.
        TRACKING_WORKER_INTERVAL_MS: '100',
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await system?.stop();
  await sim?.stop();
});

/** ADR 0236 on the whole system: intake events through `npm run emit`, the service's own workers. */
describe('a number removed and added again is not registered twice', () => {
  it('the second registration re-uses the first: the quota does not move, the dashboard counts a unit saved', async () => {
    const t = await createTenantWithToken(system);
    const created = await t.request('POST', `${PREFIX}/instances`, validCreate());
    expect(created.status).toBe(201);
    const url = `${PREFIX}/instances/${created.body.data.id}`;
    const number = '1Z999AA10123456777';
    const shipment = { trackable_type: 'sales_order_fulfillment', trackable_id: 777 };
    const assign = () =>
      npmRunEmit(system, 'shipment.tracking_assigned', t.tenant.slug, {
        ...shipment,
        trackable_label: 'SO-777 / F1',
        trackable_url: '/sales-orders/777/fulfillments/1',
        tracking_number: number,
        sales_channel_id: 1,
        sub_channel_id: 11,
      });
    const simState = () => sim.trackings().find((tracking) => tracking.number === number);
    const dashboard = async () => (await t.request('GET', url)).body.data;

    await assign();
    await waitFor(
      async () => {
        const data = await dashboard();
        return data.quota.used === 1 && data.pending_registration_count === 0 ? data : undefined;
      },
      { what: 'the first registration', timeoutMs: 60_000 },
    );

    await npmRunEmit(system, 'shipment.tracking_removed', t.tenant.slug, shipment);
    await waitFor(async () => (simState()?.tracking_state === 'Stopped' ? true : undefined), {
      what: 'the removed number stopped at the provider',
      timeoutMs: 60_000,
    });

    await assign();
    const after = await waitFor(
      async () => {
        const data = await dashboard();
        return data.quota_units_saved === 1 && data.pending_registration_count === 0
          ? data
          : undefined;
      },
      { what: 'the number tracked again', timeoutMs: 60_000 },
    );
    expect(after.quota.used).toBe(1);
    expect(simState()).toMatchObject({ tracking_state: 'Tracking', retracked: true });
    const list = (await t.request('GET', `${url}/trackings`)).body.data;
    expect(
      list.filter((row: { tracking_number: string }) => row.tracking_number === number),
    ).toHaveLength(2);
  });
});
