import mongoose from 'mongoose';
import { startEmbeddedMongo, type EmbeddedMongo, type EmbeddedMongoOptions } from '../src/index.js';

export interface Harness {
  server: EmbeddedMongo;
  conn: mongoose.Connection;
  close(): Promise<void>;
}

let dbCounter = 0;

export async function startHarness(options: EmbeddedMongoOptions = {}): Promise<Harness> {
  const server = await startEmbeddedMongo(options);
  const conn = await mongoose
    .createConnection(`${server.url}/test_${process.pid}_${dbCounter++}`)
    .asPromise();
  return {
    server,
    conn,
    async close() {
      await conn.close();
      await server.stop();
    },
  };
}
