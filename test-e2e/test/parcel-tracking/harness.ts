import type { ProviderClient } from '@inventory/parcel-tracking';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { createTenantWithToken, type TenantFixture } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';

export const GOOD_KEY = 'e2e_provider_key_1';
export const OTHER_KEY = 'e2e_provider_key_2';
export const PREFIX = '/api/integrations/parcel-tracking';

export interface ParcelSystem {
  system: RunningSystem;
  sim: ProviderSimHandle;
  /** parcel-tracking's provider client (to open its breaker, as an outage would). */
  provider: ProviderClient;
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
      },
    },
  });
  const provider = (
    system.services['parcel-tracking'] as unknown as { deps: { provider: ProviderClient } }
  ).deps.provider;
  return {
    system,
    sim,
    provider,
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
