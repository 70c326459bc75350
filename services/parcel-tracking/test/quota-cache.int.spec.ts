import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

// The cache on (the other instance suites turn it off), and a fresh API key per test, so no
// test meets a quota an earlier one cached.
const suite = useInstanceSuite({ QUOTA_CACHE_TTL_MS: '10000' });

let keys = 0;
function freshKey(): string {
  const key = `quota_cache_key_${++keys}_${Date.now()}`;
  suite.h.sim.addKey({ key });
  return key;
}

/** The service's provider counters, from its metrics registry. */
const metric = (name: string) =>
  suite.h.service.metrics.registry.getSingleMetric(name) as unknown as {
    get(): Promise<{ values: Array<{ labels: object; value: number }> }>;
  };

/** A counter's value for the given labels (0 when never incremented). */
async function counted(
  metric: { get(): Promise<{ values: Array<{ labels: object; value: number }> }> },
  labels: Record<string, string>,
): Promise<number> {
  const { values } = await metric.get();
  const found = values.find((v) =>
    Object.entries(labels).every(([k, value]) => String((v.labels as never)[k]) === value),
  );
  return found?.value ?? 0;
}

describe('the dashboard quota per API key (issue 18, item 4)', () => {
  it('concurrent dashboard reads of one key share one provider call, and later reads reuse it', async () => {
    const tenant = suite.newTenant();
    const { instance } = await suite.create(tenant, { api_key: freshKey() });
    const calls = () =>
      counted(metric('parcel_provider_calls_total'), { endpoint: 'getquota', outcome: 'ok' });
    const before = await calls();

    // More reads at once than the key's 3 provider calls a second: none may queue behind pacing.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id })),
      ),
    );
    expect(answers.map((a) => a.dashboard!.quota)).toEqual(
      Array(12).fill({ used: 0, total: 1000, remaining: 1000 }),
    );
    expect(await calls()).toBe(before + 1);

    const again = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(again.dashboard!.quota).toEqual({ used: 0, total: 1000, remaining: 1000 });
    expect(await calls()).toBe(before + 1);
    expect(await counted(metric('parcel_quota_reads_total'), { source: 'cache' })).toBeGreaterThan(
      0,
    );
  });

  it('does not cache a failure: the next read asks the provider again', async () => {
    const tenant = suite.newTenant();
    const { instance } = await suite.create(tenant, { api_key: freshKey() });
    suite.h.sim.failNext('getquota', { httpStatus: 503 });
    const failed = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(failed.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
    const ok = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(ok.dashboard!.quota).toEqual({ used: 0, total: 1000, remaining: 1000 });
  });
});
