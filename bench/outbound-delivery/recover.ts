/**
 * A recover of many failed deliveries (issue #45: "a recover of 1,000 failed deliveries completes
 * under the cap with none doubled"):
 *
 *   npx tsx --conditions=development bench/outbound-delivery/recover.ts [--count 1000]
 *
 * 1. outbound-delivery runs with the cap raised: `--count` events are delivered, then their rows
 *    are marked `failed` in the collection. Failing them for real cannot make that many: 25 in a
 *    row switch a subscription off, and the rest would be skipped, not failed.
 * 2. The service is stopped and started again with the specification's cap (600 per minute per
 *    tenant), and `RecoverDeliveries` re-sends every failed one.
 * It prints the job's progress as it runs, then what the receiver got: each delivery id's
 * successful receipts (none may be doubled or missing) and the most sent in any one cap minute
 * (never above the cap). NATS, Redis and the embedded MongoDB are real servers (`startTestInfra`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { OutboundDeliveryServiceClient } from '@inventory/contracts/outbound_delivery/v1/outbound_delivery.js';
import { domainEventEntry } from '@inventory/events';
import { eventually, startTestInfra } from '@inventory/local-infra';
import { bootstrap } from '@inventory/outbound-delivery';
import { createGrpcClient, runWithContext } from '@inventory/platform';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000' } } });
const count = Number(values.count);
const TENANT = 'bench-recover';
const CAP = 600;

const receipts: Array<{ id: string; at: number }> = [];
const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    receipts.push({ id: String(request.headers['x-svc-delivery-id']), at: Date.now() });
    response.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const infra = await startTestInfra();
const env = {
  LOG_LEVEL: 'warn',
  MONGO_URL: infra.mongoUrl,
  MONGO_DB: infra.dbName('outbound_recover'),
  NATS_URL: infra.natsUrl,
  REDIS_URL: infra.redisUrl,
  GRPC_PORT: '0',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  DELIVERY_POLL_MS: '25',
};
const as = <T>(call: () => Promise<T>) =>
  runWithContext({ requestId: 'bench', tenantId: TENANT }, call);

// 1. The deliveries, with the cap out of the way, then their rows marked failed.
let service = await bootstrap({ ...env, WEBHOOK_RATE_PER_MINUTE: String(count * 10) });
let client = createGrpcClient(OutboundDeliveryServiceClient, service.grpc!.address);
const { subscription } = await as(() =>
  client.call.createSubscription({
    url: `${receiverUrl}/recover`,
    events: ['customer.created'],
    input_violations: [],
  }),
);
const subscriptionId = subscription!.id;
const since = new Date(Date.now() - 1000);
for (let n = 0; n < count; n++) {
  const { type, event } = domainEventEntry({
    tenantId: TENANT,
    name: 'customer.created',
    data: { n },
  });
  await service.publisher.publish(type, event);
}
await eventually(
  () => {
    if (receipts.length < count) throw new Error(`${receipts.length} of ${count} delivered`);
  },
  { what: `${count} deliveries`, timeoutMs: 600_000 },
);
const marked = await service.mongo
  .collection('deliveries')
  .updateMany(
    { tenant_id: TENANT, subscription_id: subscriptionId },
    { $set: { status: 'failed' } },
  );
const attemptsBefore = receipts.length;
console.log(`${count} deliveries sent, ${marked.modifiedCount} marked failed`);

// 2. A restart with the specification's cap, the receiver healed, and the recover.
client.close();
await service.stop();
service = await bootstrap({ ...env, WEBHOOK_RATE_PER_MINUTE: String(CAP) });
client = createGrpcClient(OutboundDeliveryServiceClient, service.grpc!.address);
const started = Date.now();
const { job } = await as(() =>
  client.call.recoverDeliveries({ subscription_id: subscriptionId, since }),
);
let last = '';
const finished = await eventually(
  async () => {
    const { job: now } = await as(() =>
      client.call.getRecoverJob({ subscription_id: subscriptionId, job_id: job!.id }),
    );
    const line = `${now!.status}: ${now!.found} found, ${now!.sent} sent, ${now!.succeeded} succeeded, ${now!.failed} failed, ${now!.pending} pending`;
    if (line !== last) console.log(`${((Date.now() - started) / 1000).toFixed(1)} s  ${line}`);
    last = line;
    // `completed`: every one was sent again; the last may still be settling (`pending`).
    if (now!.status !== 'completed' || now!.pending > 0) throw new Error(line);
    return now!;
  },
  { what: 'the recover job to complete', timeoutMs: 600_000, everyMs: 500 },
);
const seconds = (Date.now() - started) / 1000;

const successes = new Map<string, number>();
const perMinute = new Map<number, number>();
for (const receipt of receipts.slice(attemptsBefore)) {
  successes.set(receipt.id, (successes.get(receipt.id) ?? 0) + 1);
  const minute = Math.floor(receipt.at / 60_000);
  perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
}
const doubled = [...successes.values()].filter((times) => times > 1).length;
const summary = {
  count,
  found: finished.found,
  sent: finished.sent,
  succeeded: finished.succeeded,
  received_once: [...successes.values()].filter((times) => times === 1).length,
  doubled,
  most_in_one_minute: Math.max(...perMinute.values()),
  cap_per_minute: CAP,
  seconds: Number(seconds.toFixed(1)),
};
console.log(JSON.stringify(summary));

client.close();
await service.stop();
await infra.stop();
receiver.close();
process.exit(
  doubled === 0 && summary.received_once === count && summary.most_in_one_minute <= CAP ? 0 : 1,
);
