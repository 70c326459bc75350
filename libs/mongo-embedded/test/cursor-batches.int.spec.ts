import { MongoClient, type Db, type Document, type Long } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// MongoDB closes a cursor only once it has looked past the last document: a full batch that
// ends exactly on it leaves the cursor open, and the next getMore answers an empty batch.
let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  db = client.db('cursor_batches');
  await db.collection('six').insertMany(Array.from({ length: 6 }, (_, i) => ({ i })));
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const cursorOf = (reply: Document) => reply.cursor as Document;
const idOf = (reply: Document) => Number(cursorOf(reply).id as Long);

describe('batches of a find', () => {
  it('keeps the cursor after a full last batch; the next getMore is empty with id 0', async () => {
    const first = await db.command({ find: 'six', batchSize: 3 });
    expect(cursorOf(first).firstBatch).toHaveLength(3);
    const id = cursorOf(first).id as Long;
    const second = await db.command({ getMore: id, collection: 'six', batchSize: 3 });
    expect(cursorOf(second).nextBatch).toHaveLength(3);
    expect(idOf(second)).not.toBe(0);
    const third = await db.command({ getMore: id, collection: 'six', batchSize: 3 });
    expect(cursorOf(third).nextBatch).toEqual([]);
    expect(idOf(third)).toBe(0);
  });

  it('closes the cursor after a partial batch, or when the limit is reached', async () => {
    const partial = await db.command({ find: 'six', batchSize: 4 });
    const id = cursorOf(partial).id as Long;
    const rest = await db.command({ getMore: id, collection: 'six', batchSize: 4 });
    expect(cursorOf(rest).nextBatch).toHaveLength(2);
    expect(idOf(rest)).toBe(0);
    expect(idOf(await db.command({ find: 'six', batchSize: 3, limit: 3 }))).toBe(0);
  });

  it('batchSize 0 answers an empty first batch and keeps the cursor', async () => {
    const first = await db.command({ find: 'six', batchSize: 0 });
    expect(cursorOf(first).firstBatch).toEqual([]);
    expect(idOf(first)).not.toBe(0);
    const all = await db.command({ getMore: cursorOf(first).id, collection: 'six' });
    expect(cursorOf(all).nextBatch).toHaveLength(6);
    expect(idOf(all)).toBe(0);
  });

  it('the driver reads every document either way', async () => {
    expect(await db.collection('six').find({}, { batchSize: 2 }).toArray()).toHaveLength(6);
  });
});
