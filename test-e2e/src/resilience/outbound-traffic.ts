import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CATALOG_STREAM } from '@inventory/events';
import { consumerDrained } from '@inventory/local-infra';
import { EventPublisher, connectNats } from '@inventory/platform';
import type { HttpResponse } from '../fixtures/http.js';
import { productCreatedEntry } from '../fixtures/product-created.js';
import { createOnce } from './create-once.js';
import { storedRows } from './stored-rows.js';

/** One product created (`catalog.product.created`) JetStream acknowledged: outbound work owed. */
export interface ScheduledEvent {
  sku: string;
  /** The fault under way when it was published. */
  phase: string;
  /** Distinct delivery ids (`webhook-id`) that reached the receiver: 1 is right, 2+ doubled. */
  deliveries: number;
  /** Receipts beyond one per delivery id: the documented at-least-once resend of a delivery. */
  resent: number;
  /** Not received, but in the delivery log (a retry still pending counts as kept). */
  inLog: boolean;
  /** In the log as `dropped`: refused by the tenant's per-minute cap. */
  droppedOverCap: boolean;
}

/** Neither received nor in the delivery log: acknowledged work lost. */
export const isLostEvent = (event: ScheduledEvent): boolean =>
  event.deliveries === 0 && !event.inLog;

/** Delivered under two or more delivery ids: sent twice as two deliveries. */
export const isDoubledEvent = (event: ScheduledEvent): boolean => event.deliveries > 1;

export interface OutboundFigures {
  scheduled: number;
  /** Of those, the ones whose delivery reached the receiver. */
  delivered: number;
  /** Not delivered but in the delivery log: a retry still to come, or dropped over the cap. */
  inLog: number;
  /** Of those, dropped over the tenant's per-minute cap. */
  droppedOverCap: number;
  /** Neither delivered nor in the log: acknowledged work lost (target 0). */
  lost: number;
  /** Events delivered under two or more delivery ids (target 0). */
  doubled: number;
  /**
   * Where the fan-out's durable consumer stood when the rows were read (events not yet taken,
   * and taken but not acked): an event still there is late, not lost.
   */
  consumer: { pending: number; ackPending: number; redelivered: number };
  /** Deliveries received again under the same id (at-least-once; receivers de-duplicate). */
  resent: number;
  events: ScheduledEvent[];
}

export interface OutboundTraffic {
  /** Stops emitting; resolves once the last publish has settled. */
  stop(): Promise<void>;
  /** Waits up to `capMs` for the fan-out's consumer to hold no event, then counts what is where. */
  verify(mongoUrl: string, capMs: number): Promise<OutboundFigures>;
  close(): Promise<void>;
}

/** The durable outbound-delivery fans `catalog.product.created` out from (ADR 0416). */
const FAN_OUT_STREAM = CATALOG_STREAM.name;
const FAN_OUT_DURABLE = 'outbound-delivery-product-created';

type Call = (method: string, path: string, body?: unknown) => Promise<HttpResponse>;

/**
 * Outbound work scheduled while faults run: a subscription to a loopback receiver, and
 * products created, each published once as `catalog.product.created` (as the products area
 * publishes them; outbound-delivery delivers each as `product.created`, ADR 0416), at a steady pace. Publishes that fail (NATS down) were never acknowledged and owe nothing.
 * The receiver notes each delivery's id, so a delivery sent twice under two ids shows.
 */
export async function startOutboundTraffic(
  dev: Record<string, string>,
  call: Call,
  options: { everyMs?: number; phase?: () => string } = {},
): Promise<OutboundTraffic> {
  const everyMs = options.everyMs ?? 500;
  const received = new Map<string, string[]>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { data?: { sku?: string } };
        const sku = body.data?.sku;
        if (sku)
          received.set(sku, [...(received.get(sku) ?? []), String(request.headers['webhook-id'])]);
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
  const url = `http://127.0.0.1:${port}/faults`;
  try {
    await createOnce(
      'subscription',
      () => call('POST', '/api/webhook-subscriptions', { url, events: ['product.created'] }),
      async () => {
        const listed = await call('GET', '/api/webhook-subscriptions');
        const rows = listed.status === 200 ? (listed.body.data as Array<{ url: string }>) : [];
        return rows.find((row) => row.url === url);
      },
    );
  } catch (error) {
    await closeReceiver();
    throw error;
  }

  const nats = await connectNats(dev.nats_url!, 'faults-emit');
  const publisher = new EventPublisher(nats.jetstream());
  const scheduled: Array<{ sku: string; phase: string }> = [];
  const runId = Date.now().toString(36);
  let running = true;
  const emitting = (async () => {
    for (let n = 1; running; n += 1) {
      const sku = `FAULT-${runId}-${n}`;
      const phase = options.phase?.() ?? '';
      const { type, event } = productCreatedEntry({
        tenantId: dev.tenant_id!,
        product: { product_id: n, sku },
      });
      await publisher.publish(type, event).then(
        () => scheduled.push({ sku, phase }),
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
      const manager = await nats.jetstreamManager();
      // The fan-out acks an event only once its deliveries are stored, so with the consumer
      // drained every event is received, in the log, or lost; past the cap, counted as it stands.
      await consumerDrained(manager, FAN_OUT_STREAM, FAN_OUT_DURABLE, capMs).catch(() => undefined);
      const info = await manager.consumers.info(FAN_OUT_STREAM, FAN_OUT_DURABLE);
      const consumer = {
        pending: info.num_pending,
        ackPending: info.num_ack_pending,
        redelivered: info.num_redelivered,
      };
      const rows = await storedRows(mongoUrl, 'outbound_delivery', 'deliveries', [
        'body',
        'status',
      ]);
      const skuOf = (row: Record<string, unknown>) =>
        (JSON.parse(String(row.body)) as { data?: { sku?: string } }).data?.sku;
      const logged = new Set(rows.map(skuOf));
      const dropped = new Set(rows.filter((row) => row.status === 'dropped').map(skuOf));
      const events = scheduled.map(({ sku, phase }): ScheduledEvent => {
        const receipts = received.get(sku) ?? [];
        const deliveries = new Set(receipts).size;
        return {
          sku,
          phase,
          deliveries,
          resent: receipts.length - deliveries,
          inLog: deliveries === 0 && logged.has(sku),
          droppedOverCap: deliveries === 0 && dropped.has(sku),
        };
      });
      const count = (test: (event: ScheduledEvent) => boolean) => events.filter(test).length;
      return {
        scheduled: events.length,
        delivered: count((event) => event.deliveries > 0),
        inLog: count((event) => event.inLog),
        droppedOverCap: count((event) => event.droppedOverCap),
        lost: count(isLostEvent),
        doubled: count(isDoubledEvent),
        consumer,
        resent: events.reduce((sum, event) => sum + event.resent, 0),
        events,
      };
    },
    async close() {
      await nats.drain().catch(() => undefined);
      await closeReceiver();
    },
  };
}

/** What a failed "nothing lost" check shows: each lost event and where the consumer stood. */
export function lostOutboundReport(figures: OutboundFigures): string {
  const lost = figures.events.filter(isLostEvent);
  return `lost: ${lost.map(({ sku, phase }) => `${sku} (${phase})`).join(', ')}; fan-out consumer: ${JSON.stringify(figures.consumer)}`;
}
