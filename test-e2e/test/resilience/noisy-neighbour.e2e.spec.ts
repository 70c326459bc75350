import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../src/fixtures/http.js';
import {
  OTHER_PROVIDER_KEY,
  PROVIDER_KEY,
  PARCEL,
  populatedTenant,
  startResilienceSystem,
  THIRD_PROVIDER_KEY,
  type PopulatedTenant,
  type ResilienceSystem,
} from './harness.js';

/**
 * Issue #18 items 3 and 4, through the gateway. The provider is paced at 1 call/s per key, so a
 * burst of dashboard GETs on one key queues in parcel-tracking past the gateway's deadline.
 */
describe('one tenant flooding the parcel-tracking dashboard', () => {
  let r: ResilienceSystem;
  let noisy: PopulatedTenant;
  let quiet: PopulatedTenant;

  beforeAll(async () => {
    r = await startResilienceSystem({
      serviceEnv: { 'parcel-tracking': { PROVIDER_RATE_PER_SECOND: '1' } },
    });
    noisy = await populatedTenant(r);
    quiet = await populatedTenant(r, { apiKey: OTHER_PROVIDER_KEY });
  }, 120_000);
  afterAll(() => r?.stop());

  const dashboard = (t: PopulatedTenant) =>
    t.fixture.request('GET', `${PARCEL}/instances/${t.instanceId}`);

  it("item 3: takes no capacity from another tenant (the noisy tenant's failures open only its own breaker)", async () => {
    // 24 key checks at once on a key paced at 1/s (the dashboard's quota is cached and shared
    // per key, so it no longer queues; a key check always asks the provider): those still
    // waiting for their turn when the 15 s provider-call deadline passes fail.
    const burst = await Promise.all(
      Array.from({ length: 24 }, () =>
        noisy.fixture.request('POST', `${PARCEL}/test`, { api_key: PROVIDER_KEY }),
      ),
    );
    const refused = burst.filter((response) => response.status === 503);
    expect(refused.length).toBeGreaterThan(5);
    for (const response of refused)
      expect(response.body).toMatchObject({ message: expect.any(String) });
    // The noisy tenant is now shed at once (its breaker is open)...
    const shed = await dashboard(noisy);
    expect(shed.status).toBe(503);
    expect(shed.body).toMatchObject({ code: 'service_unavailable' });
    // ...and the other tenant is served: a local read and its own dashboard.
    const channels: HttpResponse = await quiet.fixture.request(
      'GET',
      `${PARCEL}/instances/${quiet.instanceId}/trackable-channels`,
    );
    expect(channels.status).toBe(200);
    expect((await dashboard(quiet)).status).toBe(200);
  });

  /**
   * Item 4: parcel-tracking caches the live quota briefly per key and concurrent reads share one
   * provider call (services/parcel-tracking QuotaReader), so reads no longer queue behind pacing.
   */
  it('item 4: ten concurrent dashboard reads on one key are all answered, with the quota', async () => {
    const reader = await populatedTenant(r, { apiKey: THIRD_PROVIDER_KEY });
    const reads = await Promise.all(Array.from({ length: 10 }, () => dashboard(reader)));
    expect(reads.map((read) => read.status)).toEqual(Array(10).fill(200));
    for (const read of reads) expect(read.body.data.quota).not.toBeNull();
  });
});
