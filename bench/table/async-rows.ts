import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import { domainEventEntry } from '@inventory/events';
import { connectNats, EventPublisher } from '@inventory/platform';
import { callJson } from '../lib/http.js';
import { signedWebhook } from '../lib/provider-webhook.js';
import { openLoop, pacedCalls } from '../lib/paced.js';
import { count, type BenchContext } from './context.js';
import { latencyOf, withCpu } from './measure.js';
import type { RowInput } from './report.js';

const poll = async (done: () => Promise<boolean>, capMs: number) => {
  const deadline = Date.now() + capMs;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
};

/**
 * Webhooks pushed at a paced rate and every one processed: CPU of every process from the first
 * push until webhook-ingest has no row left to process, per acknowledged webhook.
 */
export async function webhookRow(context: BenchContext, webhookPath: string): Promise<RowInput> {
  const { dev, gatewayUrl } = context.system;
  const rate = 100;
  const total = count(context, 1000, 300);
  context.log(`webhooks: ${total} at ${rate}/s, then until processed`);
  const build = (prefix: string) => (i: number) =>
    signedWebhook(`${prefix}${String(i).padStart(9, '0')}`, dev.provider_api_key);
  const baseline = await context.bare({ ratePerSecond: rate, total, build: build('B') }, true);
  const mongo = await mongoose
    .createConnection(dev.mongo_url, { dbName: 'webhook_ingest' })
    .asPromise();
  try {
    const events = mongo.collection('webhook_events');
    const load = (prefix: string, amount: number) =>
      openLoop({
        url: `${gatewayUrl}${webhookPath}`,
        headers: { host: dev.host },
        ratePerSecond: rate,
        total: amount,
        build: build(prefix),
      });
    const drained = (prefix: string) => () =>
      events
        .countDocuments({ tracking_number: { $regex: `^${prefix}` }, state: 'received' })
        .then((left) => left === 0);
    await load('WARM', Math.ceil(total / 4));
    await poll(drained('WARM'), 120_000);
    const { result, cpuMs } = await withCpu(context.system.processes(), async () => {
      const pushed = await load('TBL', total);
      const finished = await poll(drained('TBL'), 300_000);
      return { pushed, finished };
    });
    const stored = await events.countDocuments({ tracking_number: { $regex: '^TBL' } });
    const acknowledged = result.pushed.requests - result.pushed.non_2xx;
    return {
      id: 'webhooks',
      title: 'provider webhook, acknowledged and processed',
      rate,
      measured: {
        operations: acknowledged,
        cpuMs,
        latency: latencyOf(result.pushed),
        failures:
          result.pushed.non_2xx +
          result.pushed.errors +
          Math.abs(stored - acknowledged) +
          (result.finished ? 0 : 1),
      },
      baseline,
      baselineTitle: 'bare Fastify JSON POST',
      note: 'latency is the acknowledgement; CPU runs until every row has its result',
    };
  } finally {
    await mongo.close();
  }
}

/**
 * Catalog events published at a paced rate, each delivered signed to a receiver here: CPU of
 * every process from the first publish until the last delivery arrived, per delivery.
 */
export async function outboundRow(context: BenchContext): Promise<RowInput> {
  const { dev, gatewayUrl } = context.system;
  const rate = 100;
  const total = count(context, 1000, 300);
  context.log(`outbound: ${total} events at ${rate}/s, then until delivered`);
  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const nats = await connectNats(dev.nats_url, 'bench-table');
  try {
    const port = (receiver.address() as AddressInfo).port;
    const created = await callJson(gatewayUrl, 'POST', '/api/webhook-subscriptions', context.auth, {
      url: `http://127.0.0.1:${port}/hook`,
      events: ['product.created'],
    });
    if (created.status !== 201)
      throw new Error(`subscribing: ${created.status} ${JSON.stringify(created.body)}`);
    const publisher = new EventPublisher(nats.jetstream());
    const data = { id: 1, sku: 'SKU-1', name: 'A product', price: '9.90', tags: ['a', 'b'] };
    const publish = async () => {
      const { type, event } = domainEventEntry({
        tenantId: dev.tenant_id,
        name: 'product.created',
        data,
      });
      await publisher.publish(type, event);
      return true;
    };
    const body = JSON.stringify({ event: 'product.created', data }).padEnd(300);
    const baseline = await context.bare(
      {
        ratePerSecond: rate,
        total,
        build: () => ({ method: 'POST', body, headers: { 'content-type': 'application/json' } }),
      },
      true,
    );
    const warm = Math.ceil(total / 4);
    await pacedCalls(rate, warm, publish);
    await poll(async () => received >= warm, 120_000);
    const start = received;
    const { result, cpuMs } = await withCpu(context.system.processes(), async () => {
      const published = await pacedCalls(rate, total, publish);
      const finished = await poll(async () => received - start >= total, 300_000);
      return { published, finished };
    });
    return {
      id: 'outbound',
      title: 'signed outbound delivery (`product.created`)',
      rate,
      measured: {
        operations: received - start,
        cpuMs,
        failures: result.published.failures + (result.finished ? 0 : total - (received - start)),
      },
      baseline,
      baselineTitle: 'bare Fastify JSON POST',
      note: 'CPU from the first publish until the last delivery arrived; the receiver is the bench process',
    };
  } finally {
    await nats.drain();
    receiver.closeAllConnections();
    receiver.close();
  }
}
