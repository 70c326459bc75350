import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually, waitFor } from '@inventory/eventually';
import mongoose from 'mongoose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeRecords } from '../src/storage/journal-records.js';
import { startHarness } from './helpers.js';
import { tearNextWrite } from './torn-write.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(here, '../src/cli/main.ts');
const repoRoot = path.resolve(here, '../../..');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

function startCli(
  dbpath: string,
  fsync = 'never',
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  // Node itself with tsx as a loader, not the tsx CLI: that CLI runs the server in a child process
  // of its own, so a kill -9 would hit the wrapper and leave the server running.
  const child = spawn(
    process.execPath,
    [
      '--conditions=development',
      '--import',
      'tsx',
      cli,
      ...['--port', '0', '--dbpath', dbpath, '--fsync', fsync, ...extra],
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

describe('durability', () => {
  it('replays the journal after kill -9 of the CLI process', async () => {
    const dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const first = await startCli(dbpath);
    const conn = await mongoose.createConnection(`${first.url}/durable`).asPromise();
    const schema = new mongoose.Schema({
      sku: { type: String, unique: true },
      qty: Number,
      at: Date,
    });
    const Stock = conn.model('Stock', schema);
    await Stock.init();
    await Stock.insertMany(
      Array.from({ length: 200 }, (_, i) => ({
        sku: `s${i}`,
        qty: i,
        at: new Date(1_700_000_000_000 + i),
      })),
    );
    await Stock.updateOne({ sku: 's5' }, { $inc: { qty: 100 } });
    await Stock.deleteOne({ sku: 's6' });
    first.child.kill('SIGKILL');
    await exited(first.child);
    await conn.close().catch(() => undefined);
    // Simulate a write torn by the crash: garbage bytes after the last full record.
    fs.appendFileSync(path.join(dbpath, 'journal.bin'), Buffer.from([0x40, 0, 0, 0, 1, 2, 3]));

    const second = await startCli(dbpath);
    const conn2 = await mongoose.createConnection(`${second.url}/durable`).asPromise();
    const Stock2 = conn2.model('Stock', schema);
    expect(await Stock2.countDocuments()).toBe(199);
    expect((await Stock2.findOne({ sku: 's5' }).lean())?.qty).toBe(105);
    expect((await Stock2.findOne({ sku: 's7' }).lean())?.at?.getTime()).toBe(1_700_000_000_007);
    await expect(Stock2.create({ sku: 's1' })).rejects.toMatchObject({ code: 11000 });
    await conn2.close();
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 60_000);

  it('replays every acknowledged write after kill -9 in the middle of a compaction (ADR 0722)', async () => {
    const dbpath = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    // Big enough that a snapshot takes many slices, small enough that the writes below start one.
    const first = await startCli(dbpath, 'always', ['--compact-bytes', String(24 * 1024 * 1024)]);
    const conn = await mongoose.createConnection(`${first.url}/durable`).asPromise();
    const coll = conn.db!.collection<{ _id: number; pad: string }>('rows');
    const pad = 'p'.repeat(400);
    const acknowledged: number[] = [];
    let next = 0;
    const retired = path.join(dbpath, 'journal.prev.bin');
    const partial = path.join(dbpath, 'snapshot.bin.tmp');
    let midCompaction = false;
    while (!midCompaction) {
      const batch = Array.from({ length: 200 }, () => ({ _id: next++, pad }));
      await coll.insertMany(batch);
      acknowledged.push(...batch.map((d) => d._id));
      midCompaction = fs.existsSync(retired) && fs.existsSync(partial);
    }
    // Writes go on while the snapshot is written; the process dies among them.
    const inFlight = coll
      .insertMany(Array.from({ length: 200 }, () => ({ _id: next++, pad })))
      .catch(() => undefined);
    first.child.kill('SIGKILL');
    await exited(first.child);
    await inFlight;
    await conn.close().catch(() => undefined);
    expect(fs.existsSync(retired)).toBe(true);

    const second = await startCli(dbpath);
    const conn2 = await mongoose.createConnection(`${second.url}/durable`).asPromise();
    const rows = conn2.db!.collection<{ _id: number; pad: string }>('rows');
    expect(await rows.countDocuments({ _id: { $lt: acknowledged.length } })).toBe(
      acknowledged.length,
    );
    expect(await rows.findOne({ _id: acknowledged.length - 1 })).toMatchObject({ pad });
    // The start-up compaction took the retired generation in.
    expect(fs.existsSync(retired)).toBe(false);
    await conn2.close();
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  }, 120_000);

  it('keeps data across an in-process restart and compacts the journal', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const h1 = await startHarness({ dataDir, fsync: 'always', compactBytes: 16 * 1024 });
    const coll = h1.conn.db!.collection('big');
    for (let i = 0; i < 20; i++)
      await coll.insertMany(Array.from({ length: 20 }, (_, j) => ({ i, j, pad: 'x'.repeat(50) })));
    const journalSize = fs.statSync(path.join(dataDir, 'journal.bin')).size;
    expect(journalSize).toBeLessThan(16 * 1024 + 8 * 1024);
    const dbName = h1.conn.db!.databaseName;
    await h1.close();
    const h2 = await startHarness({ dataDir });
    expect(await h2.conn.getClient().db(dbName).collection('big').countDocuments()).toBe(400);
    await h2.close();
  });
});

describe('group commit', () => {
  const journaledIds = (dataDir: string) =>
    new Set(
      decodeRecords(fs.readFileSync(path.join(dataDir, 'journal.bin'))).records.flatMap((r) =>
        r.o === 'put' ? [String(r.d._id)] : [],
      ),
    );

  it('acknowledges a write only once its record is in the journal, sharing one fdatasync', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const h = await startHarness({ dataDir, fsync: 'always' });
    const coll = h.conn.db!.collection<{ _id: string; n: number }>('gc');
    await coll.insertOne({ _id: 'warm', n: 0 });
    const syncs = vi.spyOn(fs, 'fdatasyncSync');
    const N = 40;
    const missing: string[] = [];
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        coll.insertOne({ _id: `g${i}`, n: i }).then(() => {
          // Checked synchronously on acknowledgement: the record must already be on disk.
          if (!journaledIds(dataDir).has(`g${i}`)) missing.push(`g${i}`);
        }),
      ),
    );
    expect(missing).toEqual([]);
    // Concurrent writers share flushes (each fdatasync covers every command of its turn).
    expect(syncs.mock.calls.length).toBeGreaterThan(0);
    expect(syncs.mock.calls.length).toBeLessThan(N);
    syncs.mockRestore();
    await h.close();
  });

  it('does not acknowledge a write whose record failed part-way, and replays every later one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const h = await startHarness({ dataDir, fsync: 'always' });
    const coll = h.conn.db!.collection<{ _id: string }>('full');
    const dbName = h.conn.db!.databaseName;
    await coll.insertOne({ _id: 'before' });
    // The disk fills up: half of the next journal write lands, then ENOSPC.
    const write = tearNextWrite('ENOSPC');
    await expect(coll.insertOne({ _id: 'during' })).rejects.toThrow();
    write.mockRestore();
    await coll.insertOne({ _id: 'after' });
    const journal = fs.readFileSync(path.join(dataDir, 'journal.bin'));
    expect(decodeRecords(journal).validLength).toBe(journal.length);
    await h.close();
    const again = await startHarness({ dataDir });
    const ids = await again.conn.getClient().db(dbName).collection('full').distinct('_id');
    // 'during' was never acknowledged; it was journaled whole with the write after it.
    expect(ids.sort()).toEqual(['after', 'before', 'during']);
    await again.close();
  });

  it('journals unacknowledged (w:0) writes without waiting for another command', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-embedded-'));
    const h = await startHarness({ dataDir, fsync: 'never' });
    await h.conn.db!.collection('w0').insertOne({ _id: 'ack' } as never);
    await h.conn.db!.collection('w0').insertOne({ _id: 'w0' } as never, { writeConcern: { w: 0 } });
    // No other command follows: the record reaches the journal on its own.
    await waitFor(() => journaledIds(dataDir).has('w0'), 'the w:0 record in the journal');
    await h.close();
  });
});

describe('TTL indexes', () => {
  it('expires documents past expireAfterSeconds', async () => {
    const h = await startHarness({ ttlIntervalMs: 50 });
    const schema = new mongoose.Schema({ token: String, createdAt: Date });
    schema.index({ createdAt: 1 }, { expireAfterSeconds: 1 });
    const Session = h.conn.model('TtlSession', schema);
    await Session.init();
    await Session.create([
      { token: 'old', createdAt: new Date(Date.now() - 5_000) },
      { token: 'fresh', createdAt: new Date(Date.now() + 60_000) },
      { token: 'no-date' },
    ]);
    await eventually(async () =>
      expect((await Session.find().lean()).map((d) => d.token).sort()).toEqual([
        'fresh',
        'no-date',
      ]),
    );
    await h.close();
  });
});
