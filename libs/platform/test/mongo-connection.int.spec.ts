import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '../src/index.js';

describe('connectMongo', () => {
  let infra: TestInfra;
  let connection: Connection;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, nats: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('connection'));
  });
  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('runs queries without formatting a stack trace for each (ADR 0713)', async () => {
    const Probe = connection.model('Probe', new Schema({ n: Number }, { collection: 'probes' }));
    await Probe.create({ n: 1 });
    await Probe.findOne({ n: 1 }); // warm: the driver's first operation may build errors it keeps
    const original = Error.prepareStackTrace;
    let formatted = 0;
    Error.prepareStackTrace = (error, frames) => {
      formatted++;
      return original ? original(error, frames) : `${error}`;
    };
    try {
      for (let i = 0; i < 20; i++) {
        await Probe.findOne({ n: 1 }).lean();
        await Probe.updateOne({ n: 1 }, { $set: { n: 1 } });
      }
    } finally {
      Error.prepareStackTrace = original;
    }
    expect(formatted).toBe(0);
  });
});
