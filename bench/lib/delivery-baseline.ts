/**
 * The outbound delivery baseline (issue #48): one process doing the work a signed delivery cannot
 * avoid, with nothing of ours in between. It consumes `catalog.product.created` from the same
 * JetStream stream (its own consumer, explicit acks), decodes each event (the contract's
 * envelope and record), builds the delivery body (the product as `data`, as outbound-delivery maps it) and signs it as outbound-delivery does (`X-SVC-Signature`,
 * HMAC-SHA256 hex of the body keyed with the secret; Standard Webhooks' `webhook-signature`, HMAC
 * of `<id>.<timestamp>.<body>` keyed with the secret's decoded base64), POSTs it to the receiver
 * over a keep-alive pool, inserts the same delivery row with its attempt (into a collection with
 * `deliveries`' indexes, copied at start) in one insert per pulled batch, and acks the batch.
 *
 *   NATS_URL=… MONGO_URL=… SECRET=whsec_… RECEIVER_URL=… npx tsx bench/lib/delivery-baseline.ts
 *
 * Driven by lines on stdin, so the bench measures only the work: `open` makes a fresh consumer
 * that takes only events published from then on (answers `opened`); `drain <n>` handles events
 * until `n` are delivered, stored and acked (answers `drained <n>`); `close` deletes the consumer
 * (answers `closed`). Prints `DELIVERY-BASELINE ready` once connected.
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import { AckPolicy, connect, DeliverPolicy, type Consumer, type JsMsg } from 'nats';
import { ProductCreated } from '@inventory/contracts/events/v1/catalog_records.js';
import { EventEnvelope } from '@inventory/contracts/events/v1/envelope.js';
import { BASELINE_CONSUMER } from './delivery-baseline-consumer.js';

const BASELINE_DELIVERY_COLLECTION = 'baseline_deliveries';
const STREAM = 'CATALOG';
const SUBJECT = 'catalog.product.created';
const CONSUMER = BASELINE_CONSUMER;
const BATCH = 128;

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const secret = env('SECRET');
const standardKey = Buffer.from(secret.slice('whsec_'.length), 'base64');
const receiver = new URL(env('RECEIVER_URL'));
const subscriptionId = Number(process.env.SUBSCRIPTION_ID ?? 1);

const mongo = await new MongoClient(env('MONGO_URL')).connect();
const db = mongo.db(process.env.MONGO_DB ?? 'outbound_delivery');
const indexes = (await db.collection('deliveries').listIndexes().toArray()).filter(
  (index) => index.name !== '_id_',
);
await db
  .collection(BASELINE_DELIVERY_COLLECTION)
  .drop()
  .catch(() => undefined);
const rows = db.collection(BASELINE_DELIVERY_COLLECTION);
if (indexes.length > 0)
  await rows.createIndexes(
    indexes.map(
      ({ v: _v, ns: _ns, ...spec }) => spec as Parameters<typeof rows.createIndexes>[0][0],
    ),
  );
const nats = await connect({ servers: env('NATS_URL'), name: 'bench-delivery-baseline' });
const manager = await nats.jetstreamManager();
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const deliveryIdOf = (eventId: string) => {
  const bytes = createHash('sha256')
    .update(`${eventId}:${subscriptionId}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const post = (body: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        agent,
        host: receiver.hostname,
        port: receiver.port,
        path: receiver.pathname,
        method: 'POST',
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });

/** One event: the body, both signatures, the POST, and the row it leaves. */
async function deliver(message: JsMsg) {
  const envelope = EventEnvelope.decode(message.data);
  const product = ProductCreated.decode(envelope.payload).product;
  const occurredAt = envelope.occurred_at ?? new Date();
  const createdAt = product?.created_at ?? occurredAt;
  const deliveryId = deliveryIdOf(envelope.id);
  const body = JSON.stringify({
    event: 'product.created',
    delivery_id: deliveryId,
    occurred_at: occurredAt.toISOString(),
    data: product && {
      id: product.product_id,
      sku: product.sku,
      name: product.name,
      type: product.type,
      barcode: product.barcode ? product.barcode : null,
      price: product.price,
      created_at: createdAt.toISOString(),
      updated_at: (product.updated_at ?? createdAt).toISOString(),
    },
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const attemptedAt = new Date();
  const started = performance.now();
  const answer = await post(body, {
    'X-SVC-Event': 'product.created',
    'X-SVC-Delivery-Id': deliveryId,
    'X-SVC-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', standardKey).update(`${deliveryId}.${timestamp}.${body}`).digest('base64')}`,
    'User-Agent': 'SVC-Webhook/1.0',
    'Content-Type': 'application/json',
  });
  const now = new Date();
  return {
    delivery_id: deliveryId,
    tenant_id: envelope.tenant_id,
    subscription_id: subscriptionId,
    event: 'product.created',
    dedupe_key: `${envelope.id}:${subscriptionId}`,
    body,
    occurred_at: occurredAt,
    status: answer.status >= 200 && answer.status < 300 ? 'succeeded' : 'pending',
    cycle_attempts: 1,
    admitted: true,
    next_attempt_at: now,
    lease_until: new Date(0),
    attempts: [
      {
        attempted_at: attemptedAt,
        response_status: answer.status,
        duration_ms: Math.round(performance.now() - started),
        error: null,
        response_body: answer.body,
      },
    ],
    created_at: now,
    updated_at: now,
  };
}

let consumer: Consumer | undefined;
async function drain(count: number): Promise<void> {
  let done = 0;
  while (done < count) {
    const batch: JsMsg[] = [];
    for await (const message of await consumer!.fetch({
      max_messages: Math.min(BATCH, count - done),
      expires: 1000,
    }))
      batch.push(message);
    if (batch.length === 0) continue;
    await rows.insertMany(await Promise.all(batch.map(deliver)), { ordered: false });
    for (const message of batch) message.ack();
    done += batch.length;
  }
}

const answer = (line: string) => process.stdout.write(`${line}\n`);
process.stdout.write('DELIVERY-BASELINE ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(' ');
  if (command === 'open') {
    await manager.consumers.delete(STREAM, CONSUMER).catch(() => undefined);
    await manager.consumers.add(STREAM, {
      durable_name: CONSUMER,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
      filter_subject: SUBJECT,
      max_ack_pending: 4 * BATCH,
    });
    consumer = await nats.jetstream().consumers.get(STREAM, CONSUMER);
    answer('opened');
  } else if (command === 'drain') {
    await drain(Number(argument));
    answer(`drained ${argument}`);
  } else if (command === 'close') {
    await manager.consumers.delete(STREAM, CONSUMER).catch(() => undefined);
    consumer = undefined;
    answer('closed');
  }
}
agent.destroy();
await nats.drain();
await mongo.close();
