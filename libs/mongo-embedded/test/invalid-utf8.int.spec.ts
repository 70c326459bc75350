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

/** One OP_MSG with `command` as its body, a byte `0xff` in place of the first `~` of it. */
function opMsgWithInvalidUtf8(command: Document): Buffer {
  const body = Buffer.from(serialize(command));
  body[body.indexOf('~')] = 0xff;
  const msg = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), body]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + msg.length, 0);
  header.writeInt32LE(1, 4);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, msg]);
}

/** Sends one message and resolves with the reply's body once all its declared bytes arrived. */
function roundTrip(port: number, message: Buffer): Promise<Document> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1', () => sock.write(message));
    const chunks: Buffer[] = [];
    sock.on('error', reject);
    sock.on('data', (d) => {
      chunks.push(d);
      const reply = Buffer.concat(chunks);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) {
        sock.destroy();
        resolve(deserialize(reply.subarray(21)));
      }
    });
  });
}

it('stores a document whose string is not valid UTF-8, and replays it from the journal', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-utf8-'));
  dirs.push(dataDir);
  const first = await startEmbeddedMongo({ dataDir, fsync: 'always' });
  const reply = await roundTrip(
    first.port,
    opMsgWithInvalidUtf8({ insert: 'texts', documents: [{ _id: 1, s: 'a~b' }], $db: 'utf8' }),
  );
  expect(reply).toMatchObject({ ok: 1, n: 1 });
  await first.stop();

  const second = await startEmbeddedMongo({ dataDir });
  servers.push(second);
  const client = await new MongoClient(second.url, { enableUtf8Validation: false }).connect();
  try {
    // The bytes come back decoded by JavaScript's rules: the invalid byte is U+FFFD.
    expect(
      await client
        .db('utf8')
        .collection('texts')
        .findOne({ _id: 1 as never }),
    ).toEqual({
      _id: 1,
      s: 'a\ufffdb',
    });
  } finally {
    await client.close();
  }
});
