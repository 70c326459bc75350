/**
 * catalog's own CPU per `catalog.product.created` event (the README's "Events in" figures):
 * catalog runs in a process of its own, this script publishes a burst and reads the process's
 * CPU time from /proc until the durable has nothing pending. MongoDB (embedded, in this
 * process) and NATS are not counted. Run from services/catalog:
 *   npx tsx --conditions=development test/event-cpu.ts [events]
 */
import { readFileSync } from 'node:fs';
import { CATALOG_STREAM, productCreated } from '@inventory/events';
import { spawnServiceMain, startTestInfra, waitFor } from '@inventory/local-infra';
import { connectNats, encodeEvent } from '@inventory/platform';
import { product } from './harness.js';

const EVENTS = Number(process.argv[2] ?? 5_000);
const WARM_UP = 500;
const DURABLE = 'catalog-product-created';
const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks, 100 a second on Linux.

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

const infra = await startTestInfra({ redis: false });
const catalog = await spawnServiceMain('services/catalog/src/main.ts', {
  env: {
    MONGO_URL: infra.mongoUrl,
    NATS_URL: infra.natsUrl,
    MONGO_DB: infra.dbName('catalog'),
    // Info: the ready line ("gRPC server listening") is an info line; nothing is logged per event.
    LOG_LEVEL: 'info',
  },
});
const nats = await connectNats(infra.natsUrl, 'catalog-event-cpu');
const jetstream = nats.jetstream();
const manager = await nats.jetstreamManager();
const pid = catalog.child.pid!;

/** Publishes `count` creates (ten tenants, fresh ids) and waits until catalog has acked them all. */
async function burst(first: number, count: number): Promise<void> {
  for (let start = first; start < first + count; start += 500) {
    const sends = [];
    for (let id = start; id < Math.min(start + 500, first + count); id++) {
      const { bytes } = encodeEvent(productCreated, {
        tenantId: `tenant-${id % 10}`,
        payload: { product: product(id), version: 1 },
      });
      sends.push(jetstream.publish(productCreated.subject, bytes));
    }
    await Promise.all(sends);
  }
  await waitFor(
    async () => {
      const info = await manager.consumers.info(CATALOG_STREAM.name, DURABLE);
      return info.num_pending + info.num_ack_pending === 0;
    },
    { what: 'catalog to apply the burst', timeoutMs: 600_000 },
  );
}

try {
  // The first events pay for JIT compilation and connection warm-up: not counted.
  await burst(1, WARM_UP);
  const before = cpuMs(pid);
  const started = performance.now();
  await burst(WARM_UP + 1, EVENTS);
  const cpu = cpuMs(pid) - before;
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${EVENTS} events: catalog CPU ${cpu} ms, ${Math.round((cpu * 1000) / EVENTS)} µs per event; ` +
      `${seconds.toFixed(1)} s until applied (${Math.round(EVENTS / seconds)} events/s)\n`,
  );
} finally {
  await nats.close();
  await catalog.stop();
  await infra.stop();
}
