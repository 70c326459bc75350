import { MongoClient, MongoNetworkError, type Document } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// configureFailPoint as a mongod started with enableTestCommands answers it (the driver's and
// the services' tests use failCommand to provoke errors).
let server: EmbeddedMongo;
let client: MongoClient;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url, { appName: 'fp-test' }).connect();
});
afterEach(() => failPoint('off'));
afterAll(async () => {
  await client.close();
  await server.stop();
});

const failPoint = (mode: unknown, data: Document = {}, name = 'failCommand') =>
  client.db('admin').command({ configureFailPoint: name, mode, data });
const items = () => client.db('fp').collection('items');

describe('configureFailPoint failCommand', () => {
  it('fails the named command `times` times with errorCode and errorLabels, then runs it', async () => {
    await failPoint({ times: 1 }, { failCommands: ['insert'], errorCode: 8, errorLabels: ['X'] });
    const err = await items()
      .insertOne({ a: 1 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 8, errorLabels: ['X'] });
    await expect(items().insertOne({ a: 2 })).resolves.toMatchObject({ acknowledged: true });
    expect(await items().countDocuments({ a: 1 })).toBe(0);
  });

  it('closes the connection (closeConnection), also on the driver retry', async () => {
    await failPoint({ times: 2 }, { failCommands: ['find'], closeConnection: true });
    await expect(items().findOne({})).rejects.toBeInstanceOf(MongoNetworkError);
  });

  it('holds the reply for blockTimeMS (blockConnection), then runs the command', async () => {
    await failPoint(
      { times: 1 },
      { failCommands: ['ping'], blockConnection: true, blockTimeMS: 150 },
    );
    const t0 = performance.now();
    await expect(client.db('admin').command({ ping: 1 })).resolves.toMatchObject({ ok: 1 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('only targets the appName it names', async () => {
    await failPoint('alwaysOn', { failCommands: ['count'], errorCode: 2, appName: 'other' });
    await expect(items().countDocuments()).resolves.toBeGreaterThanOrEqual(0);
    await failPoint('alwaysOn', { failCommands: ['aggregate'], errorCode: 2, appName: 'fp-test' });
    await expect(items().countDocuments()).rejects.toMatchObject({ code: 2 });
  });

  it('adds a writeConcernError to a write that ran', async () => {
    await failPoint(
      { times: 1 },
      {
        failCommands: ['insert'],
        writeConcernError: { code: 91, errmsg: 'Replication is being shut down' },
      },
    );
    await expect(items().insertOne({ w: 1 })).rejects.toMatchObject({ code: 91 });
    expect(await items().countDocuments({ w: 1 })).toBe(1);
  });
});

describe('other fail points', () => {
  it('maxTimeAlwaysTimeOut fails commands with maxTimeMS: 50 MaxTimeMSExpired', async () => {
    await failPoint('alwaysOn', {}, 'maxTimeAlwaysTimeOut');
    await expect(items().find({}).maxTimeMS(1000).toArray()).rejects.toMatchObject({ code: 50 });
    await failPoint('off', {}, 'maxTimeAlwaysTimeOut');
    await expect(items().find({}).maxTimeMS(1000).toArray()).resolves.toBeDefined();
  });

  it('any other is not implemented (238)', async () => {
    await expect(failPoint('alwaysOn', {}, 'failGetMoreAfterCursorCheckout')).rejects.toMatchObject(
      { code: 238 },
    );
  });
});
