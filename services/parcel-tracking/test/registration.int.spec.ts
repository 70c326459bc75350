import { describe, expect, it } from 'vitest';
import { ProviderClient, type TrackItem } from '../src/provider/client.js';
import { KeyPacer } from '../src/provider/pacer.js';
import { startProviderSim } from '@inventory/provider-sim';
import { as, GOOD_KEY } from './harness.js';
import { numbers, useTrackingSuite } from './tracking-suite.js';
import { registerWorker, testProvider } from './workers.js';

const suite = useTrackingSuite();
const { newTenant, create, rows, pendingRows } = suite;

/** The real client, recording every number it sends to `register`. */
class RecordingClient extends ProviderClient {
  readonly sent: string[] = [];
  readonly batches: number[] = [];
  override async register(apiKey: string, items: TrackItem[]) {
    this.sent.push(...items.map((item) => item.number));
    this.batches.push(items.length);
    return super.register(apiKey, items);
  }
}

function recordingWorker(
  owner: string,
  options: { perSecond?: number; baseUrl?: string; backoffMs?: number; now?: () => Date } = {},
) {
  const provider = new RecordingClient({
    baseUrl: options.baseUrl ?? suite.h.sim.url,
    timeoutMs: 5_000,
    pacer: new KeyPacer(options.perSecond ?? 1000),
    breakerResetMs: 1_000,
    logger: suite.h.service.logger,
  });
  const worker = registerWorker(suite.h, {
    provider,
    owner,
    leaseMs: 60_000,
    backoffMs: options.backoffMs ?? 1,
    maxBackoffMs: options.backoffMs ?? 10,
    now: options.now,
  });
  return { worker, provider };
}

describe('registration worker', () => {
  it('registers pending rows in batches of at most 40 with carrier code and name', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, numbers('REG', 85));
    const { worker, provider } = recordingWorker('w1');
    expect(await worker.runOnce()).toBe(85);
    expect(provider.batches).toEqual([40, 40, 5]);
    const all = await rows(tenant, id);
    expect(all.every((row) => row.registered_at !== null)).toBe(true);
    expect(all[0]).toMatchObject({
      carrier_code: 3011,
      carrier_name: 'China Post',
      lease_owner: null,
    });
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.pending_registration_count).toBe(0);
  });

  it('keeps to the provider limit: 3 calls/s against a simulator that answers the 4th with 429', async () => {
    const strict = await startProviderSim({ keys: [{ key: GOOD_KEY }], rateLimitPerSecond: 3 });
    try {
      const tenant = newTenant();
      const id = await create(tenant);
      await pendingRows(tenant, id, numbers('PACE', 160));
      // Four register calls and four quota reads: a 429 would put a batch back for a minute.
      const { worker, provider } = recordingWorker('paced', {
        perSecond: 3,
        baseUrl: strict.url,
        backoffMs: 60_000,
      });
      expect(await worker.runOnce()).toBe(160);
      expect(provider.batches).toEqual([40, 40, 40, 40]);
      expect((await rows(tenant, id)).every((row) => row.registered_at !== null)).toBe(true);
    } finally {
      await strict.stop();
    }
  });

  it('rejected numbers keep the provider message, grouped on the dashboard; "already registered" is success', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, ['UNDETECTABLE001', 'UNDETECTABLE002', 'OK000000001']);
    // Registered once already at the provider (by anyone with this key): still success here.
    await testProvider(suite.h).register(GOOD_KEY, [{ number: 'OK000000001' }]);
    const { worker } = recordingWorker('w2');
    await worker.runOnce();
    const all = await rows(tenant, id);
    const ok = all.find((row) => row.tracking_number === 'OK000000001')!;
    expect(ok.registered_at).not.toBeNull();
    const rejected = all.filter((row) => row.tracking_number.startsWith('UNDETECTABLE'));
    expect(rejected.every((row) => row.registered_at === null && row.registration_error)).toBe(
      true,
    );
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.registration_errors).toHaveLength(1);
    expect(dashboard!.registration_errors[0]).toMatchObject({
      count: 2,
      message: rejected[0]!.registration_error,
    });
    expect(dashboard!.pending_registration_count).toBe(0);
    expect(rejected.every((row) => row.registration_given_up_at !== null)).toBe(true);
    // Rejected rows are not retried.
    expect(await worker.runOnce()).toBe(0);
  });

  it('rows refused for an exhausted quota stay pending, shown as errors, and are retried after a back-off', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, numbers('QUOTA', 3));
    suite.h.sim.addKey({ key: GOOD_KEY, quotaTotal: 1 });
    const { worker } = recordingWorker('w-quota', { backoffMs: 60_000 });
    expect(await worker.runOnce()).toBe(3);
    const refused = (await rows(tenant, id)).filter((row) => row.registered_at === null);
    expect(refused).toHaveLength(2);
    expect(
      refused.every(
        (row) =>
          row.registration_error !== null &&
          row.registration_given_up_at === null &&
          row.next_attempt_at !== null,
      ),
    ).toBe(true);
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.pending_registration_count).toBe(2);
    expect(dashboard!.registration_errors).toMatchObject([{ count: 2 }]);
    // Topped up: after the back-off (an injected clock) the two are registered.
    suite.h.sim.addKey({ key: GOOD_KEY });
    expect(await recordingWorker('w-quota', { backoffMs: 60_000 }).worker.runOnce()).toBe(0);
    const later = recordingWorker('w-quota', {
      backoffMs: 60_000,
      now: () => new Date(Date.now() + 120_000),
    });
    expect(await later.worker.runOnce()).toBe(2);
    expect((await rows(tenant, id)).every((row) => row.registered_at !== null)).toBe(true);
    const after = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(after.dashboard!.pending_registration_count).toBe(0);
    expect(after.dashboard!.registration_errors).toEqual([]);
  });

  it('a failed call puts the batch back with a back-off, then registers', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, numbers('RETRY', 3));
    suite.h.sim.failNext('register', { httpStatus: 503 });
    const { worker } = recordingWorker('w3', { backoffMs: 60_000 });
    expect(await worker.runOnce()).toBe(0);
    const failed = await rows(tenant, id);
    expect(
      failed.every((row) => row.registration_attempts === 1 && row.next_attempt_at !== null),
    ).toBe(true);
    const { dashboard } = await as(tenant, () => suite.h.client.call.getInstance({ id }));
    expect(dashboard!.pending_registration_count).toBe(3);
    // Before the back-off has passed nothing is sent; after it (an injected clock), the batch is.
    const later = recordingWorker('w3', {
      backoffMs: 60_000,
      now: () => new Date(Date.now() + 120_000),
    });
    const early = recordingWorker('w3', { backoffMs: 60_000 });
    expect(await early.worker.runOnce()).toBe(0);
    expect(await later.worker.runOnce()).toBe(3);
  });

  it('two workers racing on one database never send the same number twice', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await pendingRows(tenant, id, numbers('RACE', 120));
    const a = recordingWorker('replica-a');
    const b = recordingWorker('replica-b');
    await Promise.all([a.worker.runOnce(), b.worker.runOnce(), a.worker.runOnce()]);
    const sent = [...a.provider.sent, ...b.provider.sent];
    expect(sent).toHaveLength(120);
    expect(new Set(sent).size).toBe(120);
    expect((await rows(tenant, id)).every((row) => row.registered_at !== null)).toBe(true);
  });

  it('the kill switch stops registration at once; switching it on resumes', async () => {
    const tenant = newTenant();
    const id = await create(tenant);
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        is_automatic_sync_enabled: false,
      }),
    );
    await pendingRows(tenant, id, numbers('KILL', 2));
    const { worker, provider } = recordingWorker('w4');
    expect(await worker.runOnce()).toBe(0);
    expect(provider.sent).toEqual([]);
    await as(tenant, () =>
      suite.h.client.call.updateInstance({
        id,
        input_violations: [],
        is_automatic_sync_enabled: true,
      }),
    );
    expect(await worker.runOnce()).toBe(2);
  });
});
