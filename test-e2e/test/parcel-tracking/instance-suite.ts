import { DELIVERY_STATUSES } from '@inventory/rules';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { connectParcelTracking, type ParcelInstance } from '../../src/fixtures/parcel-webhooks.js';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { GOOD_KEY, startParcelSystem, type ParcelSystem } from './harness.js';

/** The ten delivery statuses, in the order status_counts lists them (one definition: @inventory/rules). */
export const STATUSES: string[] = [...DELIVERY_STATUSES];
/**
 * One whole system with a provider simulator per file; the simulator and the
 * provider breaker are reset between tests.
 */
export function useParcelSystem() {
  let system: ParcelSystem | undefined;
  beforeAll(async () => {
    system = await startParcelSystem();
  }, 120_000);
  afterAll(() => system?.stop());
  beforeEach(async () => {
    system!.sim.reset();
    await system!.providerRecovered();
  });
  return {
    get p(): ParcelSystem {
      return system!;
    },
    /** A fresh tenant with a connected instance. */
    async connected(): Promise<{ t: TenantFixture; instance: ParcelInstance }> {
      const t = await system!.tenant();
      return { t, instance: await connectParcelTracking(t, GOOD_KEY) };
    },
  };
}
