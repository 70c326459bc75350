import net from 'node:net';
import { serialize } from 'bson';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
  await client
    .db('safe')
    .collection('data')
    .insertMany([{ k: 1 }, { k: 2 }]);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

function header(length: number, opCode: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeInt32LE(length, 0);
  b.writeInt32LE(7, 4);
  b.writeInt32LE(0, 8);
  b.writeInt32LE(opCode, 12);
  return b;
}

/**
 * Sends raw bytes and waits for what the server does: a whole reply (its declared length has
 * arrived) or closing the connection; no timer decides. `thenEnd` closes our side after the
 * bytes, so a server that stays silent shows it by closing without a reply.
 */
function send(
  bytes: Buffer,
  { thenEnd = false } = {},
): Promise<{ reply: Buffer; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = net.connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (closed: boolean) => {
      sock.destroy();
      resolve({ reply: Buffer.concat(chunks), closed });
    };
    sock.on('data', (d) => {
      chunks.push(d);
      const reply = Buffer.concat(chunks);
      if (reply.length >= 4 && reply.length >= reply.readInt32LE(0)) done(false);
    });
    sock.on('error', () => undefined);
    sock.on('close', () => done(true));
    sock.on('connect', () => (thenEnd ? sock.end(bytes) : sock.write(bytes)));
  });
}

async function assertHealthy() {
  expect(await client.db('safe').collection('data').countDocuments()).toBe(2);
  expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
}

describe('hostile input', () => {
  it('tolerates a truncated header', async () => {
    const r = await send(Buffer.from([1, 2, 3]), { thenEnd: true });
    expect(r).toEqual({ reply: Buffer.alloc(0), closed: true });
    await assertHealthy();
  });

  it('closes the connection on a huge declared length', async () => {
    const r = await send(header(0x7fffff00, 2013));
    expect(r.closed).toBe(true);
    await assertHealthy();
  });

  it('closes the connection on an unknown opcode', async () => {
    const r = await send(Buffer.concat([header(21, 9999), Buffer.alloc(5)]));
    expect(r.closed).toBe(true);
    await assertHealthy();
  });

  it('answers invalid BSON in an OP_MSG with an error', async () => {
    const body = Buffer.from([0x20, 0, 0, 0, 0x02, 0x61, 0]); // declared 32 bytes, only 7 present
    const msg = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), body]);
    const r = await send(Buffer.concat([header(16 + msg.length, 2013), msg]));
    expect(r.reply.length).toBeGreaterThan(21);
    expect(r.reply.readInt32LE(12)).toBe(2013);
    await assertHealthy();
  });

  it('survives a well-framed message whose BSON lies about its contents', async () => {
    const doc = serialize({ insert: 'data', documents: [{ k: 3 }], $db: 'safe' });
    doc[4] = 0x7f; // unknown BSON element type
    const msg = Buffer.concat([Buffer.alloc(4), Buffer.from([0]), doc]);
    const r = await send(Buffer.concat([header(16 + msg.length, 2013), msg]));
    expect(r.reply.length).toBeGreaterThan(0);
    await assertHealthy();
  });
});
