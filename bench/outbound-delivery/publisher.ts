/**
 * Publishes `count` catalog events (`product.created`) for one tenant on NATS, with up to
 * `window` acks awaited at once, as another area would; its own process, so its CPU is its
 * own. Connects, prints `ready`, and starts on a line read from stdin, so whoever measures starts
 * its clock at the first publish, not at this process's start-up. Prints one JSON line once every
 * ack is in: {published, elapsedMs, cpuMs}.
 *
 *   npx tsx --conditions=development bench/outbound-delivery/publisher.ts <natsUrl> <tenant> <count> <window>
 */
import { once } from 'node:events';
import { domainEventEntry } from '@inventory/events';
import { connectNats, EventPublisher } from '@inventory/platform';

const [natsUrl, tenantId, countArg, windowArg] = process.argv.slice(2);
const count = Number(countArg);
const window = Number(windowArg);
const data = { id: 1, sku: 'SKU-1', name: 'A product', price: '9.90', tags: ['a', 'b'] };

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
      const { type, event } = domainEventEntry({
        tenantId: tenantId!,
        name: 'product.created',
        data,
      });
      await publisher.publish(type, event);
    }
  }),
);
const elapsedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
await nats.drain();
process.stdout.write(
  `${JSON.stringify({ published: count, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`,
);
