import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { domainEventEntry } from '@inventory/events';
import { EventPublisher, connectNats } from '@inventory/platform';
import type { HttpResponse } from '../fixtures/http.js';
import { storedBodies } from './stored-bodies.js';

export interface OutboundFigures {
  /** product.created events JetStream acknowledged: each is outbound work the system owes. */
  scheduled: number;
  /** Of those, the ones whose delivery reached the receiver. */
  delivered: number;
  /** Not delivered yet but in the delivery log (a retry still pending counts as kept). */
  inLog: number;
  /** Neither delivered nor in the log: acknowledged work lost (target 0). */
  lost: number;
}

export interface OutboundTraffic {
  /** Stops emitting; resolves once the last publish has settled. */
  stop(): Promise<void>;
  /** Waits up to `capMs` for every scheduled delivery to arrive, then counts what is where. */
  verify(mongoUrl: string, capMs: number): Promise<OutboundFigures>;
  close(): Promise<void>;
}

type Call = (method: string, path: string, body?: unknown) => Promise<HttpResponse>;

/**
 * Outbound work scheduled while faults run: a subscription to a loopback receiver, and
 * product.created events published on the domain stream (as the catalog's owners publish them)
 * at a steady pace. Publishes that fail (NATS down) were never acknowledged and owe nothing.
 */
export async function startOutboundTraffic(
  dev: Record<string, string>,
  call: Call,
  everyMs = 500,
): Promise<OutboundTraffic> {
  const received = new Set<string>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { sku?: string } };
        if (body.data?.sku) received.add(body.data.sku);
      } catch {
        // A ping or a cut body: not one of ours.
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const closeReceiver = () =>
    new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    });
  const port = (receiver.address() as AddressInfo).port;
  const subscription = await call('POST', '/api/webhook-subscriptions', {
    url: `http://127.0.0.1:${port}/faults`,
    events: ['product.created'],
  });
  if (subscription.status !== 201) {
    await closeReceiver();
    throw new Error(`subscription: ${subscription.status} ${subscription.text}`);
  }

  const nats = await connectNats(dev.nats_url!, 'faults-emit');
  const publisher = new EventPublisher(nats.jetstream());
  const scheduled: string[] = [];
  const runId = Date.now().toString(36);
  let running = true;
  const emitting = (async () => {
    for (let n = 1; running; n += 1) {
      const sku = `FAULT-${runId}-${n}`;
      const { type, event } = domainEventEntry({
        tenantId: dev.tenant_id!,
        name: 'product.created',
        data: { id: n, sku },
      });
      await publisher.publish(type, event).then(
        () => scheduled.push(sku),
        () => undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();

  return {
    async stop() {
      running = false;
      await emitting;
    },
    async verify(mongoUrl, capMs) {
      const started = Date.now();
      while (scheduled.some((sku) => !received.has(sku)) && Date.now() - started < capMs)
        await new Promise((resolve) => setTimeout(resolve, 250));
      const missing = scheduled.filter((sku) => !received.has(sku));
      const bodies = await storedBodies(mongoUrl, 'outbound_delivery', 'deliveries', 'body');
      const logged = new Set(
        bodies.map((body) => (JSON.parse(body) as { data?: { sku?: string } }).data?.sku),
      );
      const inLog = missing.filter((sku) => logged.has(sku)).length;
      return {
        scheduled: scheduled.length,
        delivered: scheduled.length - missing.length,
        inLog,
        lost: missing.length - inLog,
      };
    },
    async close() {
      await nats.drain().catch(() => undefined);
      await closeReceiver();
    },
  };
}
