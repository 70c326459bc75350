import { DELIVERY_STATUSES } from '@inventory/rules';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { PREFIX, startParcelSystem, validCreate, type ParcelSystem } from './harness.js';

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
    async connected(): Promise<{
      t: TenantFixture;
      instance: Record<string, unknown> & { id: number; webhook_url: string };
    }> {
      const t = await system!.tenant();
      const response = await t.request('POST', `${PREFIX}/instances`, validCreate());
      expect(response.status).toBe(201);
      return { t, instance: response.body.data };
    },
  };
}
