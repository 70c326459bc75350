/**
 * The inbound webhook baseline (issue #48): one bare Fastify process doing the work a provider
 * webhook cannot avoid before its 200, with nothing of ours in between. It checks the provider's
 * `sign` (hex SHA-256 of `<raw body>/<api key>`, compared in constant time, as parcel-tracking's
 * `webhook-signature.ts` does), reads the body, inserts the row webhook-ingest stores (the same
 * fields, into a collection with `webhook_events`' indexes, copied at start) into the same
 * MongoDB with the same write concern (the connection's default, as every service's), and
 * answers 200 with the gateway's body. Ids come from a counter in this process: one process
 * needs no shared block of them.
 *
 *   MONGO_URL=… API_KEY=… TENANT_ID=… INSTANCE_ID=… npx tsx bench/lib/webhook-baseline.ts
 *
 * Prints `WEBHOOK-BASELINE <port>` when it listens.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import { MongoClient } from 'mongodb';

const BASELINE_WEBHOOK_COLLECTION = 'baseline_webhook_events';

const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};
const apiKey = env('API_KEY');
const tenantId = env('TENANT_ID');
const instanceId = Number(env('INSTANCE_ID'));

const client = await new MongoClient(env('MONGO_URL')).connect();
const db = client.db(process.env.MONGO_DB ?? 'webhook_ingest');
// The same indexes as the system's rows: maintaining them is part of the unavoidable insert.
const indexes = (await db.collection('webhook_events').listIndexes().toArray()).filter(
  (index) => index.name !== '_id_',
);
await db
  .collection(BASELINE_WEBHOOK_COLLECTION)
  .drop()
  .catch(() => undefined);
const rows = db.collection(BASELINE_WEBHOOK_COLLECTION);
if (indexes.length > 0)
  await rows.createIndexes(
    indexes.map(
      ({ v: _v, ns: _ns, ...spec }) => spec as Parameters<typeof rows.createIndexes>[0][0],
    ),
  );
let nextId = 1;

const signatureValid = (raw: Buffer, sign: string) => {
  const expected = createHash('sha256').update(raw).update(`/${apiKey}`).digest();
  const given = Buffer.from(sign, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

interface Body {
  event?: string;
  data?: {
    number?: string;
    carrier?: number;
    track_info?: {
      latest_status?: { status?: string; sub_status?: string };
      latest_event?: { time_utc?: string; description?: string; location?: string };
    };
  };
}

const app = Fastify();
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
  done(null, body),
);
app.post('/webhooks/parcel-tracking/:token', async (request, reply) => {
  const raw = request.body as Buffer;
  const sign = request.headers.sign;
  if (typeof sign !== 'string' || !signatureValid(raw, sign))
    return reply.code(401).send({ message: 'bad signature' });
  const receivedAt = new Date();
  const body = JSON.parse(raw.toString('utf8')) as Body;
  const event = body.event ?? '';
  const number = body.data?.number ?? '';
  const status = body.data?.track_info?.latest_status;
  const latest = body.data?.track_info?.latest_event;
  const identity = createHash('sha256')
    .update(JSON.stringify([event, number.toUpperCase(), latest?.time_utc ?? null]))
    .digest('hex');
  const now = new Date();
  await rows.insertOne({
    id: nextId++,
    tenant_id: tenantId,
    integration_instance_id: instanceId,
    provider: 'parcel-tracking',
    received_at: receivedAt,
    event_type: event,
    tracking_number: number,
    payload: {
      event,
      data: {
        number,
        carrier: body.data?.carrier ?? null,
        track_info: {
          latest_status: { status: status?.status ?? null, sub_status: status?.sub_status ?? null },
        },
      },
    },
    update: {
      event_type: event,
      tracking_number: number,
      carrier_code: body.data?.carrier ?? null,
      provider_status: status?.status ?? null,
      provider_sub_status: status?.sub_status ?? null,
      latest_event_at: latest?.time_utc ?? null,
      latest_event_description: latest?.description ?? null,
      latest_event_location: latest?.location ?? null,
      estimated_delivery_at: null,
      picked_up_at: null,
    },
    raw_body: raw.toString('utf8'),
    content_type: request.headers['content-type'] ?? '',
    signature: sign,
    signature_state: 'valid',
    dedupe_key: `${tenantId}:${instanceId}:${identity}`,
    status_from: null,
    status_to: null,
    summary: null,
    duplicate_of: null,
    state: 'received',
    result: null,
    error_message: null,
    processing_duration_ms: null,
    attempts: 0,
    lease_owner: null,
    lease_until: new Date(0),
    created_at: now,
    updated_at: now,
  });
  return { message: 'Webhook received.' };
});
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`WEBHOOK-BASELINE ${(app.server.address() as { port: number }).port}\n`);
process.on(
  'SIGINT',
  () =>
    void app
      .close()
      .then(() => client.close())
      .then(() => process.exit(0)),
);
