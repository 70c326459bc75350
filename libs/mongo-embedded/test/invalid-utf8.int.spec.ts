import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { afterEach, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// Issue 47, item 13: MongoDB stores strings that are not valid UTF-8 (validating them is the
// client's choice); they used to be refused as InvalidBSON. A JavaScript string cannot carry
// such bytes, so the insert is sent as a hand-built OP_MSG.
const dirs: string[] = [];
const servers: EmbeddedMongo[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** One OP_MSG with `command` as its body, a byte `0xff` in place of each `~` of it. */
function opMsgWithInvalidUtf8(command: Document): Buffer {
  const body = withInvalidBytes(command);
  const msg = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), body]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + msg.length, 0);
  header.writeInt32LE(1, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, msg]);
}

/** Sends one message and resolves with the reply's body once all its declared bytes arrived. */
async function roundTrip(port: number, message: Buffer): Promise<Document> {
  return deserialize(await roundTripBytes(port, message), { validation: { utf8: false } });
}

/** The BSON body of the reply to one message, as sent. */
function roundTripBytes(port: number, message: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(message));
    const chunks: Buffer[] = [];
    sock.on('error', reject);
    sock.on('data', (d) => {
      chunks.push(d);
      const reply = Buffer.concat(chunks);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) {
        sock.destroy();
        resolve(reply.subarray(21));
      }
    });
  });
}

/** The bytes of `doc` serialised, with `0xff` in place of each `~`: MongoDB's stored form. */
function withInvalidBytes(doc: Document): Buffer {
  const bytes = Buffer.from(serialize(doc));
  for (let i = bytes.indexOf('~'); i >= 0; i = bytes.indexOf('~', i + 1)) bytes[i] = 0xff;
  return bytes;
}

async function insertInvalid(port: number, docs: Document[]): Promise<void> {
  const reply = await roundTrip(
    port,
    opMsgWithInvalidUtf8({ insert: 'texts', documents: docs, $db: 'utf8' }),
  );
  expect(reply).toMatchObject({ ok: 1, n: docs.length });
}

const first = { _id: 1, s: 'a~b', n: 1, tags: ['x~', 'ok'], sub: { t: '~~' } };
const second = { _id: 2, s: 'plain', n: 2 };

it('stores a document whose string is not valid UTF-8 and returns its bytes unchanged, after a restart too', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-utf8-'));
  dirs.push(dataDir);
  const server = await startEmbeddedMongo({ dataDir, fsync: 'always' });
  // The body holds both documents, so each `~` of both is replaced; `second` has none.
  await insertInvalid(server.port, [first, second]);
  const check = async (url: string, n: number) => {
    const expected = withInvalidBytes({ ...first, n });
    const client = await new MongoClient(url).connect();
    try {
      const texts = client.db('utf8').collection('texts');
      // raw: the documents' BSON as the server sent it, before any client-side decoding.
      const found = await texts.find({}, { raw: true, batchSize: 1 }).toArray();
      expect(found.map((b) => Buffer.from(b as unknown as Uint8Array))).toEqual([
        expected,
        Buffer.from(serialize(second)),
      ]);
      const aggregated = await texts.aggregate([{ $match: { _id: 1 } }], { raw: true }).toArray();
      expect(Buffer.from(aggregated[0] as unknown as Uint8Array)).toEqual(expected);
      // A client that does not validate reads U+FFFD (the driver's decoding, not the server's).
      expect(await texts.findOne({ _id: 1 as never }, { enableUtf8Validation: false })).toEqual({
        ...first,
        n,
        s: 'a\ufffdb',
        tags: ['x\ufffd', 'ok'],
        sub: { t: '\ufffd\ufffd' },
      });
    } finally {
      await client.close();
    }
  };
  await check(server.url, 1);

  // An update of another field keeps the stored bytes of the strings it did not change.
  const client = await new MongoClient(server.url).connect();
  await client
    .db('utf8')
    .collection('texts')
    .updateOne({ _id: 1 as never }, { $inc: { n: 1 } });
  await client.close();
  await check(server.url, 2);
  await server.stop();

  const again = await startEmbeddedMongo({ dataDir });
  servers.push(again);
  await check(again.url, 2);
});

/** One OP_MSG with `command` as its body. */
function opMsg(command: Document): Buffer {
  return opMsgWithInvalidUtf8(command); // no `~` in the command: nothing replaced
}

it('cuts a long key in a duplicate-key message at 150 bytes, as MongoDB does, even inside a character', async () => {
  const server = await startEmbeddedMongo();
  servers.push(server);
  const _id = '\u{1F92A}'.repeat(100); // 400 bytes of 4-byte characters
  const insert = { insert: 'dups', documents: [{ _id }], $db: 'utf8' };
  expect(await roundTrip(server.port, opMsg(insert))).toMatchObject({ ok: 1, n: 1 });
  const reply = await roundTripBytes(server.port, opMsg(insert));
  // MongoDB's errmsg holds the key's first 150 bytes: 37 characters and half of the 38th.
  const expected = Buffer.concat([
    Buffer.from('E11000 duplicate key error collection: utf8.dups index: _id_ dup key: { _id: "'),
    Buffer.from(_id).subarray(0, 150),
    Buffer.from('..." }'),
  ]);
  expect(reply.includes(expected)).toBe(true);
  expect(() => deserialize(reply, { validation: { utf8: true } })).toThrow(/Invalid UTF/i);
  const decoded = deserialize(reply, { validation: { utf8: false } });
  expect(decoded.writeErrors).toEqual([
    expect.objectContaining({ index: 0, code: 11000, keyValue: { _id } }),
  ]);
  expect((decoded.writeErrors as Document[])[0]!.errmsg).toContain('\ufffd');
});

it('keeps the bytes of strings an update writes: $set, a replacement, an upsert, findAndModify', async () => {
  const server = await startEmbeddedMongo();
  servers.push(server);
  const send = async (command: Document) =>
    expect(
      await roundTrip(server.port, opMsgWithInvalidUtf8({ ...command, $db: 'utf8' })),
    ).toMatchObject({ ok: 1 });
  await send({ insert: 'docs', documents: [{ _id: 1, n: 1 }, { _id: 2 }] });
  await send({ update: 'docs', updates: [{ q: { _id: 1 }, u: { $set: { t: 'x~y' } } }] });
  await send({ update: 'docs', updates: [{ q: { _id: 2 }, u: { r: '~r' } }] });
  await send({
    update: 'docs',
    updates: [{ q: { _id: 3, k: 'k~' }, u: { $set: { s: 's~' } }, upsert: true }],
  });
  await send({ findAndModify: 'docs', query: { _id: 1 }, update: { $set: { f: '~f' } } });
  const client = await new MongoClient(server.url).connect();
  try {
    const found = await client.db('utf8').collection('docs').find({}, { raw: true }).toArray();
    expect(found.map((b) => Buffer.from(b as unknown as Uint8Array))).toEqual([
      withInvalidBytes({ _id: 1, n: 1, t: 'x~y', f: '~f' }),
      withInvalidBytes({ _id: 2, r: '~r' }),
      withInvalidBytes({ _id: 3, k: 'k~', s: 's~' }),
    ]);
  } finally {
    await client.close();
  }
});
