import { once } from 'node:events';
import { createServer, connect, type AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import { describe, expect, it } from 'vitest';
import { isMongoUnreachable } from './unreachable.js';

/** The error Node raises for a write on a socket whose peer has just sent its FIN. */
async function writeAfterPeerClosed(): Promise<unknown> {
  const server = createServer((socket) => socket.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    client.resume();
    await once(client, 'end');
    const failed = once(client, 'error').then(([error]: unknown[]) => error);
    client.write('ping');
    return await failed;
  } finally {
    server.close();
  }
}

describe('isMongoUnreachable', () => {
  it("counts Node's raw write-after-FIN error, which the driver passes through unwrapped", async () => {
    const error = await writeAfterPeerClosed();
    expect(error).toMatchObject({ code: 'EPIPE' });
    expect(isMongoUnreachable(error)).toBe(true);
  });

  it('counts a reset connection and a MongoNetworkError', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isMongoUnreachable(reset)).toBe(true);
    expect(isMongoUnreachable(new mongoose.mongo.MongoNetworkError('closed'))).toBe(true);
  });

  it('does not count what a command asked wrongly, nor a fault of our own', () => {
    const duplicate = new mongoose.mongo.MongoServerError({ code: 11000, errmsg: 'E11000' });
    expect(isMongoUnreachable(duplicate)).toBe(false);
    expect(isMongoUnreachable(new TypeError('x is undefined'))).toBe(false);
    expect(isMongoUnreachable(Object.assign(new Error('no file'), { code: 'ENOENT' }))).toBe(false);
  });
});
