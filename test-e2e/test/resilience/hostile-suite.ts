import { afterAll, beforeAll, expect } from 'vitest';
import { HostileProbes } from '../../src/resilience/hostile-probes.js';
import {
  ROUTE_TABLE,
  methodOf,
  populatedTenant,
  reportFigures,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from './harness.js';
import { snapshotOf } from './snapshot.js';

/**
 * Issue #18: every route in the gateway's route table under hostile input, iterated, so a new
 * route is probed without editing the `hostile-*.e2e.spec.ts` files. A refused write changes
 * nothing: each case compares state snapshots (`snapshot.ts`) around its probes.
 */
export const ROUTES = Object.keys(ROUTE_TABLE);

export const isWrite = (route: string): boolean => !['GET', 'HEAD'].includes(methodOf(route));

/**
 * One file's set-up and tear-down: the resilience system and a tenant with one of everything a
 * route can address, started before the first test; the probes' figures printed after the last.
 */
export function useHostileInput(suite: string) {
  let system: ResilienceSystem | undefined;
  let tenant: PopulatedTenant | undefined;
  const probes = new HostileProbes();
  beforeAll(async () => {
    system = await startResilienceSystem();
    tenant = await populatedTenant(system);
  }, 120_000);
  afterAll(async () => {
    reportFigures(probes.figures(suite));
    await system?.stop();
  });
  return {
    get r(): ResilienceSystem {
      return system!;
    },
    get a(): PopulatedTenant {
      return tenant!;
    },
    probes,
    /** Runs `probeAll`, then asserts it found no problem and the tenant's state is unchanged. */
    async withoutWriting(probeAll: () => Promise<string[]>): Promise<void> {
      const before = await snapshotOf(system!, tenant!);
      const problems = await probeAll();
      const state = await snapshotOf(system!, tenant!);
      expect({ problems, state }).toEqual({ problems: [], state: before });
    },
  };
}
