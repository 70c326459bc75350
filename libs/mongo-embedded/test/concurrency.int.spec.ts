import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
beforeAll(async () => {
  server = await startEmbeddedMongo();
});
afterAll(() => server.stop());

describe('concurrency', () => {
  it('loses no increment across 10 connections x 100 upserting findOneAndUpdate', async () => {
    const schema = new mongoose.Schema({ _id: String, seq: Number });
    const conns = await Promise.all(
      Array.from({ length: 10 }, () =>
        mongoose.createConnection(`${server.url}/counters`, { maxPoolSize: 5 }).asPromise(),
      ),
    );
    const values = await Promise.all(
      conns.map(async (conn) => {
        const Counter = conn.model('Counter', schema);
        const seen: number[] = [];
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            const doc = await Counter.findOneAndUpdate(
              { _id: 'orders' },
              { $inc: { seq: 1 } },
              { upsert: true, new: true },
            ).lean();
            seen.push(doc!.seq!);
          }),
        );
        return seen;
      }),
    );
    const all = values.flat().sort((a, b) => a - b);
    // Every returned sequence number is unique: each increment saw a distinct state.
    expect(all).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const Counter = conns[0]!.model('Counter', schema);
    expect((await Counter.findById('orders').lean())?.seq).toBe(1000);
    await Promise.all(conns.map((c) => c.close()));
  });
});
