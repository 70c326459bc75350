/**
 * Publishes `count` `catalog.product.created` events (the one event of a product created, which
 * outbound-delivery delivers as `product.created`: ADR 0416) for one tenant on NATS, with up to
 * `window` acks awaited at once, as another area would; its own process, so its CPU is its
 * own. Connects, prints `ready`, and starts on a line read from stdin, so whoever measures starts
 * its clock at the first publish, not at this process's start-up. Prints one JSON line once every
 * ack is in: {published, elapsedMs, cpuMs}.
 *
 *   npx tsx --conditions=development bench/outbound-delivery/publisher.ts <natsUrl> <tenant> <count> <window>
 */
import { once } from 'node:events';
import { productCreated, type ProductCreated } from '@inventory/events';
import { connectNats, EventPublisher } from '@inventory/platform';

const [natsUrl, tenantId, countArg, windowArg] = process.argv.slice(2);
const count = Number(countArg);
const window = Number(windowArg);
const payload: ProductCreated = {
  product: { product_id: 1, sku: 'SKU-1', name: 'A product', type: 'standard', price: '9.90' },
  version: 1,
};

const nats = await connectNats(natsUrl!, 'bench-publisher');
const publisher = new EventPublisher(nats.jetstream());
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const cpuBefore = process.cpuUsage();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: window }, async () => {
    while (next < count) {
      next++;
      await publisher.publish(productCreated, { tenantId: tenantId!, payload });
    }
  }),
);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await nats.drain();
process.stdout.write(
  `${JSON.stringify({ published: count, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
