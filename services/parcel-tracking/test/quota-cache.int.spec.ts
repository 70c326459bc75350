import { describe, expect, it } from 'vitest';
import { as } from './harness.js';
import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();

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
    const { instance } = await suite.create(tenant);
    const { provider, quotas } = suite.h.service.deps;
    quotas.clear();
    const calls = () => counted(provider.metrics.calls, { endpoint: 'getquota', outcome: 'ok' });
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
    expect(await counted(provider.metrics.quotaReads, { source: 'cache' })).toBeGreaterThan(0);
  });

  it('does not cache a failure: the next read asks the provider again', async () => {
    const tenant = suite.newTenant();
    const { instance } = await suite.create(tenant);
    suite.h.service.deps.quotas.clear();
    suite.h.sim.failNext('getquota', { httpStatus: 503 });
    const failed = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(failed.dashboard!.quota_error).toMatchObject({ code: 'api_error' });
    const ok = await as(tenant, () => suite.h.client.call.getInstance({ id: instance!.id }));
    expect(ok.dashboard!.quota).toEqual({ used: 0, total: 1000, remaining: 1000 });
  });
});
