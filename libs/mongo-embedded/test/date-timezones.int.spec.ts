import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
beforeAll(async () => {
  server = await startEmbeddedMongo();
  client = await new MongoClient(server.url).connect();
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

/** Date operators' `timezone`, as MongoDB takes it: the names of UTC are offset zero. */
describe('a date operator with timezone "UTC"', () => {
  it('groups by UTC day with "UTC", "GMT" and "Etc/UTC" as with "+00:00"', async () => {
    const coll = client.db('tz').collection('events');
    await coll.insertMany([
      { at: new Date('2026-11-28T23:30:00Z') },
      { at: new Date('2026-11-29T00:30:00Z') },
      { at: new Date('2026-11-29T12:00:00Z') },
    ]);
    const daysIn = (timezone: string) =>
      coll
        .aggregate([
          {
            $group: {
              _id: { $dateToString: { format: '%Y-%m-%d', date: '$at', timezone } },
              n: { $sum: 1 },
            },
          },
          { $sort: { _id: 1 } },
        ])
        .toArray();
    const expected = [
      { _id: '2026-11-28', n: 1 },
      { _id: '2026-11-29', n: 2 },
    ];
    for (const timezone of ['UTC', 'GMT', 'Etc/UTC', '+00:00']) {
      expect(await daysIn(timezone), timezone).toEqual(expected);
    }
    // An offset still shifts the day, and a name that is no zone is still refused.
    expect(await daysIn('+01:00')).toEqual([{ _id: '2026-11-29', n: 3 }]);
    await expect(daysIn('Not/AZone!')).rejects.toBeDefined();
  });
});
