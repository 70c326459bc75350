import { MongoClient, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';
import { rng, stages } from './plan-oracle.js';

// Large `$in` lists are served from the index as MongoDB serves them (ADR 0611): any number of
// points (up to 200,000 intervals) as one index scan when no sort has to be merged; a sort the
// index serves by merging intervals up to 200 of them (SORT_MERGE); past that the index bounds the
// scan and the sort is done in memory. Every answer is compared with a collection scan.

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await startEmbeddedMongo({ port: 0 });
  client = await new MongoClient(server.url).connect();
  db = client.db('large_in');
});

afterAll(async () => {
  await client.close();
  await server.stop();
});

type Sort = Record<string, 1 | -1>;

const names = (explain: Document) =>
  stages(explain.queryPlanner.winningPlan as Document).map((s) => s.stage as string);
const ixscans = (explain: Document) =>
  stages(explain.queryPlanner.winningPlan as Document).filter((s) => s.stage === 'IXSCAN');

const DOCS = 6_000;
/** `k` unique per row (a dedupe key), `g` 300 groups of 20, `u` unique and shuffled, `d` 600 values. */
function row(i: number): Document {
  return {
    k: `key-${String(i).padStart(6, '0')}`,
    g: i % 300,
    u: (i * 7_919) % DOCS,
    d: i % 600,
    at: new Date(1_700_000_000_000 + (i % 50) * 1000),
  };
}

let coll: Collection;
beforeAll(async () => {
  coll = db.collection('rows');
  await coll.createIndex({ k: 1 }, { unique: true });
  await coll.createIndex({ g: 1, u: 1 });
  await coll.createIndex({ g: 1, at: 1 });
  await coll.createIndex({ d: -1 });
  const r = rng(42);
  const rows = Array.from({ length: DOCS }, (_, i) => row(i));
  // Natural order differs from every key's order.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  await coll.insertMany(rows);
});

/** The same query as a collection scan (the server's in-memory sort over `$natural` order). */
async function scanned(
  c: Collection,
  filter: Document,
  sort?: Sort,
  skip = 0,
  limit = 0,
): Promise<Document[]> {
  let cursor = c.find(filter, { hint: { $natural: 1 } });
  if (sort) cursor = cursor.sort(sort);
  return cursor.skip(skip).limit(limit).toArray();
}

async function expectSameAsScan(
  c: Collection,
  filter: Document,
  sort?: Sort,
  skip = 0,
  limit = 0,
): Promise<Document> {
  let cursor = c.find(filter);
  if (sort) cursor = cursor.sort(sort);
  const actual = await cursor.skip(skip).limit(limit).toArray();
  const expected = await scanned(c, filter, sort, skip, limit);
  expect(actual, JSON.stringify({ sort, skip, limit })).toEqual(expected);
  let explained = c.find(filter);
  if (sort) explained = explained.sort(sort);
  return explained.skip(skip).limit(limit).explain();
}

const keys = (n: number, from = 0) =>
  Array.from({ length: n }, (_, j) => `key-${String(from + j * 3).padStart(6, '0')}`);

describe('$in lists larger than 64 points use the index', () => {
  it.each([65, 500, 5_000])(
    '$in with %i values on an indexed field is one index scan over that many points',
    async (n) => {
      // Every third key from 0: with 5,000 values the last third are past the collection.
      const values = keys(n);
      const filter = { k: { $in: values } };
      const matches = values.filter((v) => Number(v.slice(4)) < DOCS).length;
      const explain = await expectSameAsScan(coll, filter);
      expect(names(explain)).toEqual(['FETCH', 'IXSCAN']);
      expect(ixscans(explain)[0]!.indexBounds.k).toHaveLength(n);
      expect(explain.executionStats).toMatchObject({
        nReturned: matches,
        totalKeysExamined: matches,
        totalDocsExamined: matches,
      });
      expect(await coll.countDocuments(filter)).toBe(matches);
      const count = await db.command({ explain: { count: 'rows', query: filter } });
      expect(names(count)).toEqual(['COUNT', 'COUNT_SCAN']);
      expect(count.executionStats).toMatchObject({ totalDocsExamined: 0, nReturned: matches });
    },
  );

  it('returns an unsorted large $in in natural order, with skip and limit, as a scan does', async () => {
    const filter = { k: { $in: keys(700, 1) } };
    await expectSameAsScan(coll, filter, undefined, 0, 0);
    await expectSameAsScan(coll, filter, undefined, 37, 100);
  });

  it('merges a sorted 150-value $in (SORT_MERGE of 150 scans) in the order a scan sorts it', async () => {
    const groups = Array.from({ length: 150 }, (_, j) => (j * 7) % 300);
    const filter = { g: { $in: groups } };
    for (const sort of [{ u: 1 }, { u: -1 }, { at: 1 }] as Sort[]) {
      const explain = await expectSameAsScan(coll, filter, sort, 0, 0);
      await expectSameAsScan(coll, filter, sort, 123, 40);
      expect(explain.queryPlanner.maxScansToExplodeReached).toBe(false);
      expect(names(explain).slice(0, 2)).toEqual(['FETCH', 'SORT_MERGE']);
      expect(names(explain)).not.toContain('SORT');
      const scans = ixscans(explain);
      expect(scans).toHaveLength(150);
      expect(new Set(scans.map((s) => JSON.stringify(s.indexBounds.g))).size).toBe(150);
      expect(scans.reduce((n, s) => n + (s.keysExamined as number), 0)).toBe(
        explain.executionStats.totalKeysExamined,
      );
    }
    // A page reads only its own documents: the bounds are exact, the walk stops after skip + limit.
    const page = await coll.find(filter).sort({ u: -1 }).skip(20).limit(10).explain();
    expect(page.executionStats).toMatchObject({
      nReturned: 10,
      totalKeysExamined: 30,
      totalDocsExamined: 10,
    });
  });

  it('sorts a 300-value $in in memory over the index bounds (beyond 200 merged scans)', async () => {
    const groups = Array.from({ length: 300 }, (_, j) => j).filter((g) => g % 7 !== 3);
    expect(groups.length).toBeGreaterThan(200);
    const filter = { g: { $in: groups } };
    const matches = await coll.countDocuments(filter);
    expect(matches).toBeLessThan(DOCS);
    for (const sort of [{ u: 1 }, { u: -1 }, { at: 1 }] as Sort[]) {
      const explain = await expectSameAsScan(coll, filter, sort, 0, 0);
      await expectSameAsScan(coll, filter, sort, 500, 25);
      expect(explain.queryPlanner.maxScansToExplodeReached).toBe(true);
      expect(names(explain)).toEqual(['SORT', 'FETCH', 'IXSCAN']);
      expect(ixscans(explain)[0]!.indexBounds.g).toHaveLength(groups.length);
      expect(explain.executionStats).toMatchObject({
        totalKeysExamined: matches,
        totalDocsExamined: matches,
      });
    }
  });

  it('walks a large $in in order, without merging, when the sort starts with the $in field', async () => {
    const groups = Array.from({ length: 280 }, (_, j) => 299 - j);
    const filter = { g: { $in: groups } };
    for (const sort of [
      { g: 1, u: 1 },
      { g: -1, u: -1 },
    ] as Sort[]) {
      const explain = await expectSameAsScan(coll, filter, sort, 0, 0);
      expect(names(explain)).toEqual(['FETCH', 'IXSCAN']);
      expect(explain.queryPlanner.maxScansToExplodeReached).toBe(false);
      // Exact bounds: skipped rows are passed over by position, whole intervals at a time.
      await expectSameAsScan(coll, filter, sort, 1_000, 10);
      const page = await coll.find(filter).sort(sort).skip(1_000).limit(10).explain();
      expect(page.executionStats).toMatchObject({ totalKeysExamined: 10, totalDocsExamined: 10 });
    }
  });

  it('serves a descending index: bounds in index order, sorts both ways, ranges of points', async () => {
    const values = Array.from({ length: 250 }, (_, j) => (j * 11) % 600);
    const filter = { d: { $in: values } };
    const explain = await expectSameAsScan(coll, filter);
    const bounds = ixscans(explain)[0]!.indexBounds.d as string[];
    expect(bounds).toHaveLength(new Set(values).size);
    expect(bounds[0]).toBe(`[${Math.max(...values)}, ${Math.max(...values)}]`);
    expect(bounds.at(-1)).toBe('[0, 0]');
    // Walked forwards, ties come in natural order (as the scan's stable sort keeps them).
    const forward = await expectSameAsScan(coll, filter, { d: -1 }, 0, 0);
    expect(names(forward)).toEqual(['FETCH', 'IXSCAN']);
    expect(ixscans(forward)[0]!.direction).toBe('forward');
    await expectSameAsScan(coll, filter, { d: -1 }, 333, 77);
    // Walked backwards, ties come in reverse natural order (as MongoDB's RecordIds do).
    const natural = await scanned(coll, filter);
    const expected = natural
      .map((doc, n) => ({ doc, n }))
      .sort((x, y) => x.doc.d - y.doc.d || y.n - x.n)
      .map((x) => x.doc);
    expect(await coll.find(filter).sort({ d: 1 }).toArray()).toEqual(expected);
    expect(await coll.find(filter).sort({ d: 1 }).skip(333).limit(77).toArray()).toEqual(
      expected.slice(333, 410),
    );
    const backward = await coll.find(filter).sort({ d: 1 }).explain();
    expect(names(backward)).toEqual(['FETCH', 'IXSCAN']);
    expect(ixscans(backward)[0]!.direction).toBe('backward');
  });

  it('bounds a compound index by a 100 × 100 $in product, and caps the product at 200,000', async () => {
    const pairs = db.collection('pairs');
    await pairs.createIndex({ a: 1, b: 1 });
    const r = rng(7);
    await pairs.insertMany(
      Array.from({ length: 5_000 }, (_, i) => ({ i, a: r.int(600), b: r.int(600) })),
    );
    const as = Array.from({ length: 100 }, (_, j) => j * 3);
    const bs = Array.from({ length: 100 }, (_, j) => j * 5);
    const filter = { a: { $in: as }, b: { $in: bs } };
    const matches = await pairs.countDocuments(filter, { hint: { $natural: 1 } });
    const explain = await expectSameAsScan(pairs, filter);
    await expectSameAsScan(pairs, filter, { i: 1 }, 0, 0);
    expect(names(explain)).toEqual(['FETCH', 'IXSCAN']);
    const scan = ixscans(explain)[0]!;
    expect(scan.indexBounds.a).toHaveLength(100);
    expect(scan.indexBounds.b).toHaveLength(100);
    expect(explain.executionStats).toMatchObject({
      totalKeysExamined: matches,
      totalDocsExamined: matches,
    });
    expect(await pairs.countDocuments(filter)).toBe(matches);

    // 1,000 × 1,000 points would be 1,000,000 intervals: the scan is bounded by `a` alone and `b` is
    // checked on the documents.
    const wide = {
      a: { $in: Array.from({ length: 1_000 }, (_, j) => j * 2) },
      b: { $in: Array.from({ length: 1_000 }, (_, j) => j * 2 + 1) },
    };
    const wideExplain = await expectSameAsScan(pairs, wide);
    const wideScan = ixscans(wideExplain)[0]!;
    expect(wideScan.indexBounds.a).toHaveLength(1_000);
    expect(wideScan.indexBounds.b).toEqual(['[MinKey, MaxKey]']);
    expect(await pairs.countDocuments(wide)).toBe(
      await pairs.countDocuments(wide, { hint: { $natural: 1 } }),
    );
  });
});

describe('large $in keeps the semantics of small ones', () => {
  it('ignores duplicate values, orders mixed types, and leaves null/regex/empty lists as before', async () => {
    const mixed = db.collection('mixed');
    await mixed.createIndex({ v: 1 });
    const r = rng(11);
    const value = (i: number): unknown => {
      switch (i % 6) {
        case 0:
          return i;
        case 1:
          return `s${i}`;
        case 2:
          return new Date(1_700_000_000_000 + i);
        case 3:
          return new ObjectId(i.toString(16).padStart(24, '0'));
        case 4:
          return i % 4 === 0;
        default:
          return i % 12 === 5 ? null : i / 2;
      }
    };
    const rows = Array.from({ length: 1_500 }, (_, i) => ({ i, v: value(r.int(1_200)) }));
    await mixed.insertMany(rows);
    const some = Array.from({ length: 300 }, (_, j) => value(j * 7));
    const bound = some.filter((v) => v !== null);

    // Duplicates: the same points as the distinct list.
    const doubled = { v: { $in: [...bound, ...bound.slice(0, 150)] } };
    const explain = await expectSameAsScan(mixed, doubled);
    expect(ixscans(explain)[0]!.indexBounds.v).toHaveLength(
      new Set(bound.map((v) => JSON.stringify(v))).size,
    );
    // (A served descending sort returns ties in reverse natural order, a scan in natural order:
    // the descending sort here is done in memory, with `i` after `v`.)
    for (const sort of [{ v: 1 }, { v: 1, i: 1 }, { v: -1, i: 1 }, { i: -1 }] as Sort[])
      await expectSameAsScan(mixed, { v: { $in: bound } }, sort, 0, 0);
    expect(names(await expectSameAsScan(mixed, { v: { $in: bound } }, { v: 1 }))).toEqual([
      'FETCH',
      'IXSCAN',
    ]);

    // null and regexes are not bound values: the list is checked on every document.
    for (const extra of [null, /^s1/]) {
      const filter = { v: { $in: [...bound, extra] } };
      const withExtra = await expectSameAsScan(mixed, filter, { i: 1 });
      expect(names(withExtra)).toEqual(['SORT', 'COLLSCAN']);
      expect(await mixed.countDocuments(filter)).toBe(
        await mixed.countDocuments(filter, { hint: { $natural: 1 } }),
      );
    }

    // An empty list matches nothing, from the index.
    const empty = await expectSameAsScan(mixed, { v: { $in: [] } }, { i: 1 });
    expect(empty.executionStats).toMatchObject({ nReturned: 0, totalDocsExamined: 0 });
    expect(await mixed.countDocuments({ v: { $in: [] } })).toBe(0);
  });

  it('answers a large $in on a multikey index once per document', async () => {
    const tagged = db.collection('tagged');
    await tagged.createIndex({ tags: 1 });
    const r = rng(5);
    await tagged.insertMany(
      Array.from({ length: 2_000 }, (_, i) => ({
        i,
        tags: Array.from({ length: r.int(4) }, () => `t${r.int(500)}`),
      })),
    );
    const filter = { tags: { $in: Array.from({ length: 250 }, (_, j) => `t${j * 2}`) } };
    const explain = await expectSameAsScan(tagged, filter);
    expect(names(explain)).toEqual(['FETCH', 'IXSCAN']);
    expect(ixscans(explain)[0]!.isMultiKey).toBe(true);
    await expectSameAsScan(tagged, filter, { i: -1 }, 10, 50);
    expect(await tagged.countDocuments(filter)).toBe(
      await tagged.countDocuments(filter, { hint: { $natural: 1 } }),
    );
  });

  it('answers randomized $in filters exactly as a collection scan (fixed seed)', async () => {
    const props = db.collection('props');
    await props.createIndex({ a: 1, u: 1 });
    await props.createIndex({ b: 1, c: -1, u: -1 });
    await props.createIndex({ c: -1 });
    const r = rng(2026);
    await props.insertMany(
      Array.from({ length: 2_000 }, (_, i) => ({
        u: (i * 6_007) % 2_000,
        a: r.int(400),
        b: r.pick(['x', 'y', 'z', 'w']),
        c: r.int(50),
        n: r.int(10),
      })),
    );
    const list = (n: number, of: number) => Array.from({ length: n }, () => r.int(of));
    const SORTS: (Sort | undefined)[] = [
      undefined,
      { u: 1 },
      { u: -1 },
      { a: 1, u: 1 },
      { c: -1, u: -1 },
      { c: 1, u: 1 },
    ];
    for (let q = 0; q < 40; q++) {
      const filter: Document = {};
      filter.a = { $in: list([0, 5, 70, 150, 250, 600][r.int(6)]!, 450) };
      if (r.int(2)) filter.b = { $in: ['x', 'y', 'z', 'w'].slice(0, 1 + r.int(4)) };
      if (r.int(2)) filter.c = r.int(3) ? { $in: list(1 + r.int(60), 55) } : { $gte: r.int(40) };
      if (r.int(4) === 0) filter.n = { $ne: r.int(10) };
      if (r.int(5) === 0) delete filter.a;
      const sort = r.pick(SORTS);
      const [skip, limit] = r.int(2) ? [0, 0] : [r.int(100), 1 + r.int(50)];
      await expectSameAsScan(props, filter, sort, skip, limit);
      expect(await props.countDocuments(filter), JSON.stringify(filter)).toBe(
        (await scanned(props, filter)).length,
      );
    }
  });
});
