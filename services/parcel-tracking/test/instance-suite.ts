import type { CreateInstanceRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { as, GOOD_KEY, startHarness, type Harness } from './harness.js';

/**
 * The shared set-up of the instance suites: one service with a simulator per
 * file, a fresh tenant per test, and the simulator reset between tests. The dashboard's quota
 * cache is off (the simulator's quota moves between tests), except where a suite turns it on
 * (`quota-cache.int.spec.ts`, with a fresh key per test).
 */
export function useInstanceSuite(env: NodeJS.ProcessEnv = {}) {
  let harness: Harness | undefined;
  let tenantSeq = 0;
  beforeAll(async () => {
    harness = await startHarness({ QUOTA_CACHE_TTL_MS: '0', ...env });
  });
  afterAll(() => harness?.stop());
  beforeEach(() => {
    harness!.sim.reset();
  });
  const suite = {
    get h(): Harness {
      return harness!;
    },
    newTenant: () => `tenant-${++tenantSeq}-${Date.now()}`,
    /** Creates with the defaults below, through the suite's service or another replica's client. */
    create: (
      tenant: string,
      request: Partial<CreateInstanceRequest> = {},
      client: Harness['client'] = harness!.client,
    ) =>
      as(tenant, () =>
        client.call.createInstance({
          input_violations: [],
          name: 'Parcel tracking',
          api_key: GOOD_KEY,
          ...request,
        }),
      ),
    /** What every tracking row a test inserts on `instanceId` shares: its tenant and instance. */
    rowBase: (tenant: string, instanceId: number) => ({
      tenant_id: tenant,
      integration_instance_id: instanceId,
      trackable_type: 'sales_order_fulfillment',
      trackable_id: 1,
    }),
  };
  return suite;
}
