import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Db, type Document } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { referenceSort, rng, trackingRow } from './plan-oracle.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, '../src/cli/main.ts');
const repoRoot = path.resolve(here, '../../..');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** The CLI under node with tsx as a loader, so kill -9 hits the server process itself. */
function startCli(dbpath: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      cli,
      '--port',
      '0',
      '--dbpath',
      dbpath,
      '--fsync',
      'never',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready on (mongodb:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`cli exited with ${code}: ${out}`)));
  });
}

const exited = (c: ChildProcess) =>
  new Promise((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', r)));

const QUERIES: { filter: Document; sort: Record<string, 1 | -1> }[] = [
  { filter: { t: 't1', ii: 'a' }, sort: { at: -1, id: -1 } },
  { filter: { t: 't2', ii: 'b' }, sort: { at: 1, id: 1 } },
  { filter: { t: 't1', ii: 'c', s: { $in: ['pending', 'failed'] } }, sort: { u: -1 } },
  { filter: {}, sort: { m: 1, id: 1 } },
  { filter: {}, sort: { t: 1, ii: 1, s: 1, u: -1 } },
];

/** Every index walked in full (results, keys examined) plus counts: the observable index state. */
async function indexState(db: Db): Promise<Document[]> {
  const coll = db.collection('trackings');
  const out: Document[] = [];
  for (const q of QUERIES) {
    const docs = await coll.find(q.filter).sort(q.sort).toArray();
    const explain = await coll.find(q.filter).sort(q.sort).explain();
    out.push({
      ids: docs.map((d) => d.id),
      keys: explain.executionStats.totalKeysExamined,
      count: await coll.countDocuments(q.filter),
    });
  }
  return out;
}

describe('index state after journal replay', () => {
  it('rebuilds the same index order after kill -9, including moved and deleted keys', async () => {
    const dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-idx-'));
    const first = await startCli(dbpath);
    const client = await new MongoClient(first.url).connect();
    const db = client.db('replay');
    const coll = db.collection('trackings');
    await coll.createIndex({ t: 1, ii: 1, at: -1, id: -1 });
    await coll.createIndex({ t: 1, ii: 1, s: 1, u: -1 });
    await coll.createIndex({ m: 1, id: 1 });
    const r = rng(42);
    await coll.insertMany(Array.from({ length: 400 }, (_, i) => trackingRow(r, i)));
    // Writes that move keys: updated dates/statuses, deletions, re-insertion of a deleted id.
    for (let i = 0; i < 60; i++)
      await coll.updateOne({ id: r.int(400) }, { $set: trackingRow(r, 1000 + i) });
    await coll.deleteMany({ n: { $lt: 4 } });
    await coll.updateMany({ ii: 'b' }, { $set: { s: 'failed' } });
    await coll.insertOne(trackingRow(r, 7));
    const before = await indexState(db);
    const scanned = await coll.find({ t: 't1', ii: 'a' }, { hint: { $natural: 1 } }).toArray();
    expect(before[0]!.ids).toEqual(referenceSort(scanned, { at: -1, id: -1 }).map((d) => d.id));

    first.child.kill('SIGKILL');
    await exited(first.child);
    await client.close(true);

    const second = await startCli(dbpath);
    const again = await new MongoClient(second.url).connect();
    expect(await indexState(again.db('replay'))).toEqual(before);
    await again.close();
    second.child.kill('SIGTERM');
    await exited(second.child);
  });
});
