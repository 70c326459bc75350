import { eventually } from '@inventory/local-infra';
import { nextSequence } from '@inventory/platform';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { createTenantWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

export const GOOD_KEY = 'e2e_provider_key_1';
export const OTHER_KEY = 'e2e_provider_key_2';
export const PREFIX = '/api/integrations/parcel-tracking';

export interface ParcelSystem {
  system: RunningSystem;
  sim: ProviderSimHandle;
  /**
   * Opens parcel-tracking's provider breaker of `GOOD_KEY` the way failing answers do: every
   * provider call fails (HTTP 503) until that key's calls stop reaching the simulator. The
   * provider stays down (each half-open trial fails too) until `providerRecovered()`.
   */
  openBreaker(): Promise<void>;
  /** Brings the provider back and waits for the breaker's half-open trial to close it. */
  providerRecovered(): Promise<void>;
  tenant(): Promise<TenantFixture>;
  stop(): Promise<void>;
}

/** The whole system with parcel-tracking pointed at an in-process provider simulator. */
export async function startParcelSystem(): Promise<ParcelSystem> {
  const sim = await startProviderSim({
    keys: [{ key: GOOD_KEY }, { key: OTHER_KEY, quotaTotal: 50 }],
    rateLimitPerSecond: 1000,
  });
  const system = await startSystem({
    serviceEnv: {
      'parcel-tracking': {
        PROVIDER_BASE_URL: sim.url,
        PROVIDER_RATE_PER_SECOND: '1000',
        STOP_RETRY_DELAY_MS: '200',
        // These tests move the simulator's quota and fail its calls between requests; the
        // per-key quota cache is covered by services/parcel-tracking/test/quota-cache.int.spec.ts.
        QUOTA_CACHE_TTL_MS: '0',
        // Short, so the breaker a test opened closes soon after the simulator recovers.
        PROVIDER_BREAKER_RESET_MS: '500',
        // The stalled and late alert sweep, often enough for a test to wait on it.
        SHIPMENT_WATCH_INTERVAL_MS: '200',
      },
    },
  });
  let prober: TenantFixture | undefined;
  const probe = async () => {
    prober ??= await createTenantWithToken(system);
    return prober.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
  };
  const outageLeft = () => sim.state.faults.pending().find((f) => f.endpoint === '*')?.remaining;
  let down = false;
  return {
    system,
    sim,
    async openBreaker() {
      down = true;
      sim.failNext('*', { httpStatus: 503, times: 1_000_000 });
      // Successes earlier in the breaker's rolling window dilute the error rate: fail calls until
      // one no longer reaches the simulator.
      for (let call = 0; call < 100; call++) {
        const before = outageLeft();
        const response = await probe();
        if (response.body?.code !== 'api_error') throw new Error('a provider call did not fail');
        if (outageLeft() === before) return;
      }
      throw new Error('the provider breaker did not open');
    },
    async providerRecovered() {
      if (!down) return;
      sim.state.faults.clear();
      await eventually(async () => {
        if ((await probe()).status !== 200) throw new Error('the provider breaker is still open');
      }, 'the provider breaker to close');
      down = false;
    },
    tenant: () => createTenantWithToken(system),
    async stop() {
      await system.stop();
      await sim.stop();
    },
  };
}

export const validCreate = (extra: Record<string, unknown> = {}) => ({
  name: 'Parcel tracking',
  api_key: GOOD_KEY,
  ...extra,
});

/**
 * Unregistered rows as parcel-tracking's intake stores them (`tracking_rows`, ids from its
 * counter), which its registration worker then takes up.
 */
export async function seedPendingRows(
  p: ParcelSystem,
  t: TenantFixture,
  instanceId: number,
  numbers: string[],
): Promise<void> {
  await seedTrackingRows(
    p.system,
    t,
    instanceId,
    numbers.map((tracking_number) => ({ tracking_number })),
  );
}

/** Rows stored as parcel-tracking stores them, each with its own fields over a pending row's. */
export async function seedTrackingRows(
  system: RunningSystem,
  t: TenantFixture,
  instanceId: number,
  rows: Array<{ tracking_number: string } & Record<string, unknown>>,
): Promise<void> {
  const mongo = system.services['parcel-tracking']!.mongo;
  for (const { tracking_number: number, ...fields } of rows)
    await mongo.collection('tracking_rows').insertOne({
      tenant_id: t.tenant.id,
      integration_instance_id: instanceId,
      id: await nextSequence(mongo, 'tracking_rows'),
      trackable_type: 'inbound_shipment',
      trackable_id: 1,
      trackable_label: 'IS-1',
      trackable_url: '/inbound-shipments/1',
      tracking_number: number,
      carrier_code: null,
      carrier_name: null,
      delivery_status: 'pending',
      sub_status: null,
      latest_event_description: null,
      latest_event_location: null,
      last_event_at: null,
      estimated_delivery_at: null,
      delivered_at: null,
      picked_up_at: null,
      registered_at: null,
      registration_error: null,
      registration_failed_at: null,
      registration_given_up_at: null,
      stopped_at: null,
      provider_stopped_at: null,
      active: true,
      sales_channel_id: null,
      sub_channel_id: null,
      registration_attempts: 0,
      next_attempt_at: null,
      last_polled_at: null,
      lease_owner: null,
      lease_until: null,
      delivery_effects_at: null,
      last_webhook_event_id: null,
      last_status_from: null,
      revision: 0,
      created_at: new Date(),
      updated_at: new Date(),
      ...fields,
    });
}

const DAY = 24 * 3600_000;

/**
 * `count` registration times over the quota forecast's 14 UTC days, today included (ADR 0235):
 * now for today, noon for each of the 13 days before. The window then lasts 13 to 14 days.
 */
export function forecastRegistrationTimes(count: number, now = Date.now()): Date[] {
  const today = now - (now % DAY);
  return Array.from({ length: count }, (_, i) => {
    const daysAgo = i % 14;
    return new Date(daysAgo === 0 ? now : today - daysAgo * DAY + DAY / 2);
  });
}
