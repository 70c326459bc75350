import { connect as connectNats, type NatsConnection } from 'nats';
import { freePort, spawnServiceMain, type ManagedProcess } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, FakeParcelTracking, TrackingUpdateOutcome } from './fake-parcel-tracking.js';
import {
  activityEvents,
  clientOf,
  connect,
  eventually,
  ingest,
  startHarness,
  webhookEvents,
} from './harness.js';
import { ProviderPushes, SIM_KEY } from './provider-pushes.js';
import type { Connection } from 'mongoose';
import { connectMongo } from '@inventory/platform';

const TENANT = 'tenant-crash';
const INSTANCE = 12;

/** kill -9 of webhook-ingest between store and process: the service runs as its own process. */
describe('crashes mid-job (webhook-ingest killed, parcel-tracking gone)', () => {
  let h: Awaited<ReturnType<typeof startHarness>>;
  let pushes: ProviderPushes;
  let nats: NatsConnection;
  let mongo: Connection;
  let port: number;
  let child: ManagedProcess | undefined;

  const start = async () => {
    child = await spawnServiceMain('services/webhook-ingest/src/main.ts', {
      env: {
        ...h.env,
        LOG_LEVEL: 'info',
        GRPC_PORT: String(port),
        // One loop: while it waits on the first row, the second stays stored and unclaimed.
        WEBHOOK_PROCESSING_CONCURRENCY: '1',
        WEBHOOK_LEASE_MS: '1500',
      },
    });
  };

  beforeAll(async () => {
    h = await startHarness();
    pushes = await ProviderPushes.start();
    port = await freePort();
    nats = await connectNats({ servers: h.infra.natsUrl });
    mongo = await connectMongo(h.infra.mongoUrl, h.env.MONGO_DB!);
    await start();
  });
  afterAll(async () => {
    await child?.stop();
    await mongo?.close();
    await nats?.close();
    await pushes?.stop();
    await h?.fake.stop();
    await h?.infra.stop();
  });

  it('ends with exactly one row and one result per webhook after a restart', async () => {
    const client = clientOf(`127.0.0.1:${port}`);
    const token = await connect(client, h.fake, TENANT, INSTANCE, SIM_KEY);
    const [inFlight, waiting] = ['1Z999AA10000000901', '1Z999AA10000000902'];
    // The first apply never answers (the worker is mid-job when killed); the retry is applied.
    h.fake.applyAnswers.set(inFlight, [
      'hang',
      answer(TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED, 'pending', 'info_received'),
    ]);
    const ids: number[] = [];
    for (const number of [inFlight, waiting]) {
      await pushes.register(number);
      pushes.advance(number);
      const { body, sign } = await pushes.push(number);
      ids.push((await ingest(client, token, body, sign)).webhook_event_id);
    }
    client.close();
    await eventually(async () => expect(h.fake.callsFor(ids[0]!)).toHaveLength(1));
    expect(
      await webhookEvents(mongo).countDocuments({
        id: ids[1],
        state: 'received',
        lease_owner: null,
      }),
    ).toBe(1);

    const exited = new Promise((resolve) => child!.child.once('exit', resolve));
    child!.child.kill('SIGKILL');
    await exited;
    child = undefined;
    await start();

    const rows = await eventually(async () => {
      const found = await webhookEvents(mongo)
        .find({ tenant_id: TENANT })
        .sort({ id: 1 })
        .toArray();
      expect(found.map((row) => row.state)).toEqual(['done', 'done']);
      return found;
    }, 60_000);
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.map((row) => row.result)).toEqual(['processed', 'processed']);
    expect(rows[0]!.summary).toBe('pending → info_received');
    // The in-flight row was applied again under the same idempotency key; the waiting one once.
    expect(h.fake.callsFor(ids[0]!).map((call) => call.request.webhook_event_id)).toEqual([
      ids[0],
      ids[0],
    ]);
    expect(h.fake.callsFor(ids[1]!)).toHaveLength(1);
    const streams = {
      jetstream: nats.jetstream(),
      jetstreamManager: await nats.jetstreamManager(),
    };
    await eventually(async () => {
      const activity = await activityEvents(streams, TENANT);
      expect(
        activity.map((entry) => entry.properties.webhook_event_id as number).sort((a, b) => a - b),
      ).toEqual(ids);
    });
  });

  it('finishes a row whose parcel-tracking call died with its server, once a new one answers', async () => {
    const client = clientOf(`127.0.0.1:${port}`);
    // A tenant of its own: the other test reads every row and activity of TENANT.
    const token = await connect(client, h.fake, `${TENANT}-revived`, INSTANCE, SIM_KEY);
    const number = '1Z999AA10000000903';
    h.fake.applyAnswers.set(number, ['hang']);
    await pushes.register(number);
    pushes.advance(number);
    const { body, sign } = await pushes.push(number);
    const id = (await ingest(client, token, body, sign)).webhook_event_id;
    client.close();
    await eventually(async () => expect(h.fake.callsFor(id)).toHaveLength(1));
    // parcel-tracking goes away mid-call and comes back on the same address.
    const fakePort = Number(h.fake.address.split(':')[1]);
    const keys = h.fake.apiKeys;
    await h.fake.stop();
    const revived = await new FakeParcelTracking().start(fakePort);
    for (const [key, value] of keys) revived.apiKeys.set(key, value);
    h.fake = revived;
    const row = await eventually(async () => {
      const found = await webhookEvents(mongo).findOne({ id });
      expect(found?.state).toBe('done');
      return found!;
    }, 60_000);
    expect(row).toMatchObject({ result: 'processed', summary: 'in_transit → delivered' });
    expect(revived.callsFor(id).map((call) => call.request.webhook_event_id)).toEqual([id]);
  });
});
