import { Double, Long, MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

// MongoDB compares int64 and double exactly: 2^53 + 1 is greater than the double 2^53, although
// converting it to a double would make them equal. Filters, sorts and index order must agree.
const TWO_53 = 2 ** 53;
const rows: Document[] = [
  { _id: 'int', n: 5 },
  { _id: 'double-2^53', n: new Double(TWO_53) },
  { _id: 'long-2^53', n: Long.fromNumber(TWO_53) },
  { _id: 'long-2^53+1', n: Long.fromString('9007199254740993') },
  { _id: 'long-2^53+2', n: Long.fromString('9007199254740994') },
  { _id: 'long-max', n: Long.MAX_VALUE },
  { _id: 'double-1.5e19', n: new Double(1.5e19) },
  { _id: 'long-min', n: Long.MIN_VALUE },
  { _id: 'double-0.5', n: 0.5 },
  { _id: 'string', n: '9007199254740995' },
];

let server: EmbeddedMongo;
let client: MongoClient;
const colls: Record<'scan' | 'indexed', Collection> = {} as never;

beforeAll(async () => {
  server = await startEmbeddedMongo({});
  client = await new MongoClient(server.url).connect();
  colls.scan = client.db('int64').collection('scan');
  colls.indexed = client.db('int64').collection('indexed');
  await colls.indexed.createIndex({ n: 1 });
  for (const c of Object.values(colls)) await c.insertMany(rows.map((r) => ({ ...r })));
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const ids = async (c: Collection, filter: Document, sort: Document = { _id: 1 }) =>
  (await c.find(filter).sort(sort).toArray()).map((d) => d._id);

describe.each(['scan', 'indexed'] as const)('int64 beyond 2^53 (%s)', (which) => {
  it('range filters compare int64 and double exactly', async () => {
    const c = colls[which];
    expect(await ids(c, { n: { $gt: TWO_53 } })).toEqual([
      'double-1.5e19',
      'long-2^53+1',
      'long-2^53+2',
      'long-max',
    ]);
    expect(await ids(c, { n: { $gte: Long.fromString('9007199254740993'), $lt: 1e19 } })).toEqual([
      'long-2^53+1',
      'long-2^53+2',
      'long-max',
    ]);
    expect(await ids(c, { n: { $lte: Long.fromNumber(TWO_53) } })).toEqual([
      'double-0.5',
      'double-2^53',
      'int',
      'long-2^53',
      'long-min',
    ]);
    expect(await ids(c, { n: { $lt: -1e18 } })).toEqual(['long-min']);
  });

  it('equality and $in between int64 and double are exact', async () => {
    const c = colls[which];
    expect(await ids(c, { n: TWO_53 })).toEqual(['double-2^53', 'long-2^53']);
    expect(await ids(c, { n: Long.fromString('9007199254740993') })).toEqual(['long-2^53+1']);
    // 2^53 + 2 is a double too: the double and the long are equal.
    expect(await ids(c, { n: { $in: [TWO_53 + 2, 'x'] } })).toEqual(['long-2^53+2']);
    expect(await ids(c, { n: { $nin: [TWO_53 + 2, TWO_53] }, _id: /^long/ })).toEqual([
      'long-2^53+1',
      'long-max',
      'long-min',
    ]);
    expect(
      await ids(c, { n: { $ne: Long.fromString('9007199254740993') }, _id: /^long-2/ }),
    ).toEqual(['long-2^53', 'long-2^53+2']);
  });

  it('sorts int64 and double in exact numeric order (ties in natural order), numbers before strings', async () => {
    const c = colls[which];
    const ascending = [
      'long-min',
      'double-0.5',
      'int',
      'double-2^53',
      'long-2^53',
      'long-2^53+1',
      'long-2^53+2',
      'long-max',
      'double-1.5e19',
      'string',
    ];
    expect(await ids(c, {}, { n: 1 })).toEqual(ascending);
    const descending = await ids(c, {}, { n: -1 });
    expect(descending.filter((id) => !String(id).endsWith('2^53'))).toEqual(
      ascending.filter((id) => !id.endsWith('2^53')).reverse(),
    );
    expect(await ids(c, { n: { $gt: 1 } }, { n: -1 })).toEqual([
      'double-1.5e19',
      'long-max',
      'long-2^53+2',
      'long-2^53+1',
      ...descending.filter((id) => String(id).endsWith('2^53')),
      'int',
    ]);
  });
});

it('a range over an int64 index walks the index (no full scan)', async () => {
  const explained = await colls.indexed
    .find({ n: { $gt: TWO_53 } })
    .sort({ n: 1 })
    .explain('executionStats');
  expect(JSON.stringify(explained.queryPlanner.winningPlan)).toContain('IXSCAN');
  expect(explained.executionStats.nReturned).toBe(4);
  expect(explained.executionStats.totalDocsExamined).toBeLessThanOrEqual(4);
});
