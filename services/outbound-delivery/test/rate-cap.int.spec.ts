import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledDeliveries, startHarness, subscribe, type Harness } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

const TENANT = 'tenant-capped';
const CAP = 5;
/** Every replica reads this minute: the burst cannot straddle two windows on a slow machine. */
const PINNED_NOW = Date.UTC(2031, 4, 6, 7, 8, 30);

async function droppedCount(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith('outbound_webhook_deliveries_total{') && l.includes('outcome="dropped"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('per-tenant cap shared by replicas', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startHarness({ WEBHOOK_RATE_PER_MINUTE: String(CAP) }, { clock: () => PINNED_NOW });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await h?.stop();
  });

  it(
    'drops (not queues) what exceeds the cap across two replicas, visible in the log and the metric',
    { timeout: 60_000 },
    async () => {
      const second = await h.startReplica();
      const { id } = await subscribe(h, TENANT, `${receiver.url}/capped`);
      const other = await subscribe(h, 'tenant-uncapped', `${receiver.url}/other`);
      for (let n = 0; n < 12; n++) await h.publish(TENANT, 'sales_order.created', { n });
      for (let n = 0; n < 3; n++) await h.publish('tenant-uncapped', 'sales_order.created', { n });

      const settled = await settledDeliveries(h, TENANT, id, 12);
      const byStatus = (status: string) => settled.filter((d) => d.status === status);
      expect(byStatus('succeeded')).toHaveLength(CAP);
      expect(byStatus('dropped')).toHaveLength(12 - CAP);
      expect(byStatus('dropped').every((d) => d.attempts.length === 0)).toBe(true);
      expect(receiver.requests.filter((r) => r.path === '/capped')).toHaveLength(CAP);
      // Another tenant has its own allowance.
      const others = await settledDeliveries(h, 'tenant-uncapped', other.id, 3);
      expect(others.every((d) => d.status === 'succeeded')).toBe(true);

      const dropped =
        (await droppedCount(h.service.metricsServerPort)) +
        (await droppedCount(second.metricsServerPort));
      expect(dropped).toBe(12 - CAP);
    },
  );
});
