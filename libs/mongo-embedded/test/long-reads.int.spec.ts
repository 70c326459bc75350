import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'bson';
import {
  MongoClient,
  type Collection,
  type CommandStartedEvent,
  type Document,
  type Long,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// A long read must not hold every other connection up (ADR 0617): while a cursor's batch of tens
// of thousands of documents is built, another connection's ping and write are answered first.
// The read is long by its size; the tests look at the order of the answers, never at durations.
const N = 40_000;
let server: EmbeddedMongo;
let reader: MongoClient;
let other: MongoClient;
let rows: Collection<{ _id: number } & Document>;

beforeAll(async () => {
  server = await startEmbeddedMongo();
  reader = await new MongoClient(server.url, { monitorCommands: true }).connect();
  other = await new MongoClient(server.url, { maxPoolSize: 1 }).connect();
  rows = reader.db('long_reads').collection<{ _id: number } & Document>('rows');
  await rows.createIndex({ tenant_id: 1, at: 1 });
  for (let i = 0; i < N; i += 5_000)
    await rows.insertMany(
      Array.from({ length: 5_000 }, (_, k) => ({
        _id: i + k,
        tenant_id: 't1',
        at: new Date(1_700_000_000_000 + ((i + k) % 977) * 1000),
        label: `row ${i + k} `.padEnd(120, '.'),
        n: i + k,
      })),
    );
}, 120_000);
afterAll(async () => {
  await reader.close();
  await other.close();
  await server.stop();
});

const filter = { tenant_id: 't1', at: { $gte: new Date(0) } };
const projection = { _id: 0, n: 1, label: 1 };
const expected = (n: number) => ({ n, label: `row ${n} `.padEnd(120, '.') });
// Small documents keep the reply's transfer short next to the work of building its batch.
const numbers = { _id: 0, n: 1 };
const inOrder = Array.from({ length: N }, (_, n) => ({ n }));

/** Starts `read` and resolves once the driver has sent `command` (the long one) for it. */
async function started(read: () => Promise<Document[]>, command: string) {
  const sending = new Promise<void>((resolve) => {
    const seen = (e: CommandStartedEvent) => {
      if (e.commandName !== command) return;
      reader.off('commandStarted', seen);
      resolve();
    };
    reader.on('commandStarted', seen);
  });
  let done = false;
  const result = read().then((docs) => {
    done = true;
    return docs;
  });
  await sending;
  return { result, isDone: () => done };
}

/** Pings on the other connection, one after the other, until `isDone`; answers how many came first. */
async function pingsWhile(isDone: () => boolean): Promise<number> {
  let first = 0;
  while (!isDone()) {
    await other.db('admin').command({ ping: 1 });
    if (!isDone()) first++;
  }
  return first;
}

const db = () => reader.db('long_reads');

/** The rest of a find after its first 101 documents, in one getMore (the driver asks 1,000 at a time). */
async function oneLongGetMore(): Promise<Document[]> {
  const first = await db().command({ find: 'rows', filter, projection: numbers });
  const { firstBatch, id } = first.cursor as { firstBatch: Document[]; id: Long };
  const more = await db().command({ getMore: id, collection: 'rows', batchSize: N });
  return [...firstBatch, ...((more.cursor as Document).nextBatch as Document[])];
}

const reads: [string, string, () => Promise<Document[]>][] = [
  [
    'a find with one long first batch',
    'find',
    () => rows.find(filter, { projection: numbers, batchSize: N + 1 }).toArray(),
  ],
  ['a find read by one long getMore', 'getMore', oneLongGetMore],
  [
    'an aggregate with one long first batch',
    'aggregate',
    () =>
      rows.aggregate([{ $match: filter }, { $project: numbers }], { batchSize: N + 1 }).toArray(),
  ],
];

describe('long reads', () => {
  it.each(reads)('%s: pings on another connection are answered before it', async (_, cmd, read) => {
    const { result, isDone } = await started(read, cmd);
    const pingsFirst = await pingsWhile(isDone);
    const docs = await result;
    // A batch built in one go lets at most the one or two pings queued before it through.
    expect(pingsFirst).toBeGreaterThanOrEqual(5);
    expect(docs).toEqual(inOrder);
  });

  it('writes on another connection are answered before a long find, which still holds every document in order', async () => {
    const { result, isDone } = await started(
      () => rows.find(filter, { projection, batchSize: N + 1 }).toArray(),
      'find',
    );
    // Into the same collection, outside the find's filter: its results are known either way.
    const sameCollection = other.db('long_reads').collection<{ _id: number } & Document>('rows');
    let first = 0;
    let written = 0;
    while (!isDone()) {
      await sameCollection.insertOne({
        _id: N + written++,
        tenant_id: 't2',
        at: new Date(0),
        n: -1,
      });
      if (!isDone()) first++;
    }
    const docs = await result;
    expect(first).toBeGreaterThanOrEqual(5);
    expect(await sameCollection.countDocuments({ tenant_id: 't2' })).toBe(written);
    expect(docs).toEqual(inOrder.map(({ n }) => expected(n)));
    await sameCollection.deleteMany({ tenant_id: 't2' });
  });
});

/** An OP_MSG with `command` as its body and `requestId`. */
function opMsg(requestId: number, command: Document): Buffer {
  const body = Buffer.from(serialize(command));
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + 5 + body.length, 0);
  header.writeInt32LE(requestId, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, Buffer.alloc(5), body]);
}

/** Writes `bytes` on a new socket and answers the first `n` replies: [responseTo, body]. */
function replies(bytes: Buffer, n: number): Promise<[number, Document][]> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(server.port, '127.0.0.1', () => sock.write(bytes));
    let buf = Buffer.alloc(0);
    const out: [number, Document][] = [];
    sock.on('error', reject);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 4 && buf.length >= buf.readInt32LE(0)) {
        const len = buf.readInt32LE(0);
        out.push([buf.readInt32LE(8), deserialize(buf.subarray(21, len))]);
        buf = buf.subarray(len);
      }
      if (out.length >= n) {
        sock.destroy();
        resolve(out);
      }
    });
  });
}

describe('one connection', () => {
  it('answers the message after a long batch after it, in order', async () => {
    const find = { find: 'rows', filter, projection: numbers, batchSize: N + 1, $db: 'long_reads' };
    const answers = await replies(
      Buffer.concat([opMsg(1, find), opMsg(2, { ping: 1, $db: 'admin' })]),
      2,
    );
    expect(answers.map(([to]) => to)).toEqual([1, 2]);
    expect(((answers[0]![1].cursor as Document).firstBatch as Document[]).length).toBe(N);
    expect(answers[1]![1].ok).toBe(1);
  });
});

describe('batches projected after the command', () => {
  it('a projection reading `let` variables applies to the batches of later getMores too', async () => {
    const coll = reader.db('long_reads').collection('with_let');
    await coll.insertMany(
      Array.from({ length: 250 }, (_, i) => ({ i, arr: [{ v: 1 }, { v: 2 }] })),
    );
    const docs = await coll
      .find(
        {},
        {
          projection: { _id: 0, i: 1, arr: { $elemMatch: { $expr: { $eq: ['$v', '$$want'] } } } },
          let: { want: 2 },
          batchSize: 100,
        },
      )
      .toArray();
    expect(docs).toEqual(Array.from({ length: 250 }, (_, i) => ({ i, arr: [{ v: 2 }] })));
  });
});

describe('long reads with a journal', () => {
  it('writes meanwhile are journaled and answered first; the read still answers every document', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const journaled = await startEmbeddedMongo({ dataDir, fsync: 'always' });
    const a = await new MongoClient(journaled.url, { monitorCommands: true }).connect();
    const b = await new MongoClient(journaled.url, { maxPoolSize: 1 }).connect();
    try {
      const coll = a.db('long_reads').collection<{ _id: number } & Document>('rows');
      for (let i = 0; i < N; i += 5_000)
        await coll.insertMany(Array.from({ length: 5_000 }, (_, k) => ({ _id: i + k, n: i + k })));
      const sending = new Promise<void>((resolve) => a.once('commandStarted', () => resolve()));
      let done = false;
      const result = coll
        .find({}, { projection: numbers, batchSize: N + 1 })
        .toArray()
        .then((docs) => ((done = true), docs));
      await sending;
      const other = b.db('long_reads').collection<{ _id: number } & Document>('rows');
      let first = 0;
      let written = 0;
      while (!done) {
        await other.insertOne({ _id: N + written++, n: -1 });
        if (!done) first++;
      }
      const docs = await result;
      expect(first).toBeGreaterThanOrEqual(3);
      // Every stored document in order; a write that reached the server before the find would follow.
      expect(docs.slice(0, N)).toEqual(inOrder);
      expect(await other.countDocuments({ n: -1 })).toBe(written);
    } finally {
      await a.close();
      await b.close();
      await journaled.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
