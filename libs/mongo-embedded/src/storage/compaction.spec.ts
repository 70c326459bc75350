import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger.js';
import { tearNextWrite } from '../../test/torn-write.js';
import { Catalog } from './catalog.js';
import { Journal } from './journal.js';
import { encodeRecord, type JournalRecord } from './journal-records.js';

// Incremental compaction (ADR 0722): the snapshot is written a slice per event-loop turn while
// writes go on, and the data directory replays to the live state at every moment.

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'compaction-spec-'));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function openStore(dir: string, sliceBytes = 2048) {
  const journal = new Journal(dir, 'never', silentLogger, { sliceBytes });
  const catalog = new Catalog(journal);
  catalog.replay(journal.open());
  return { journal, catalog };
}

/** Every database, collection, index name and document, in a comparable form. */
function stateOf(catalog: Catalog): Record<string, { indexes: string[]; docs: string[] }> {
  const state: Record<string, { indexes: string[]; docs: string[] }> = {};
  for (const db of catalog.databaseNames())
    for (const coll of catalog.collections(db))
      state[coll.ns] = {
        indexes: [...coll.indexes.keys()].sort(),
        docs: [...coll.docs.values()].map((d) => JSON.stringify(d)).sort(),
      };
  return state;
}

/** What a kill -9 at this moment leaves: the files as they are (every acknowledged write flushed). */
function crashCopy(dir: string): string {
  const copy = tempDir();
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

function seed(catalog: Catalog, journal: Journal): void {
  const a = catalog.getOrCreate('d', 'a');
  for (let i = 0; i < 3000; i++)
    catalog.insert(a, { _id: i, v: `v${i}`, at: new Date(1_700_000_000_000 + i) });
  const b = catalog.getOrCreate('d', 'b');
  for (let i = 0; i < 200; i++) catalog.insert(b, { _id: `b${i}`, n: i });
  const c = catalog.getOrCreate('e', 'c');
  for (let i = 0; i < 100; i++) catalog.insert(c, { _id: i, pad: 'x'.repeat(100) });
  journal.flush();
}

/** A fresh data directory holding the seeded collections, and the store open on it. */
function seededStore() {
  const dir = tempDir();
  const { journal, catalog } = openStore(dir);
  seed(catalog, journal);
  return { dir, journal, catalog };
}

/** One turn's worth of writes of every kind, as commands would make them. */
function writeRound(catalog: Catalog, journal: Journal, k: number): void {
  const a = catalog.get('d', 'a')!;
  const replaced = a.docs.get(String((k * 7) % 3000)) ?? [...a.docs.values()][0]!;
  catalog.replace(a, replaced, { ...replaced, v: `round${k}` });
  const removed = [...a.docs.values()][(k * 13) % a.docs.size];
  if (removed) catalog.remove(a, removed);
  catalog.insert(a, { _id: 10_000 + k, v: `new${k}` });
  if (k === 3) {
    catalog.dropCollection('d', 'b');
    const b = catalog.getOrCreate('d', 'b');
    for (let i = 0; i < 5; i++) catalog.insert(b, { _id: `b${i}`, n: -i });
  }
  if (k === 5) catalog.createIndex(a, { v: 2, key: { v: 1 }, name: 'v_1' });
  if (k === 7) catalog.dropDatabase('e');
  journal.flush();
}

describe('incremental compaction', () => {
  it('writes the snapshot over several turns while writes go on, and the files replay to the live state at every moment', async () => {
    const { dir, journal, catalog } = seededStore();

    expect(journal.startCompaction(catalog.snapshot())).toBe(true);
    // It returned before writing the snapshot: the retired journal waits beside the new one.
    expect(journal.compacting).toBe(true);
    expect(fs.existsSync(path.join(dir, 'journal.prev.bin'))).toBe(true);
    expect(journal.startCompaction(catalog.snapshot())).toBe(false);

    const crashes: { copy: string; expected: ReturnType<typeof stateOf> }[] = [];
    let rounds = 0;
    while (journal.compacting) {
      writeRound(catalog, journal, rounds);
      if (rounds % 4 === 0) crashes.push({ copy: crashCopy(dir), expected: stateOf(catalog) });
      rounds++;
      await nextTurn();
    }
    // Every kind of write landed while the snapshot was being written.
    expect(rounds).toBeGreaterThan(8);
    expect(fs.existsSync(path.join(dir, 'journal.prev.bin'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'snapshot.bin.tmp'))).toBe(false);

    for (let k = rounds; k < rounds + 3; k++) writeRound(catalog, journal, k);
    expect(stateOf(openStore(crashCopy(dir)).catalog)).toEqual(stateOf(catalog));

    for (const { copy, expected } of crashes) {
      const restarted = openStore(copy);
      expect(stateOf(restarted.catalog)).toEqual(expected);
      // The start-up compaction after such a crash keeps it all too.
      restarted.journal.compact(restarted.catalog.snapshot());
      restarted.journal.close();
      expect(fs.existsSync(path.join(copy, 'journal.prev.bin'))).toBe(false);
      expect(stateOf(openStore(copy).catalog)).toEqual(expected);
    }
    journal.close();
  });

  it('skips a retired journal left behind by a crash after the snapshot was put in place', async () => {
    const { dir, journal, catalog } = seededStore();
    journal.startCompaction(catalog.snapshot());
    writeRound(catalog, journal, 0);
    const retired = fs.readFileSync(path.join(dir, 'journal.prev.bin'));
    while (journal.compacting) await nextTurn();
    writeRound(catalog, journal, 1);

    const copy = crashCopy(dir);
    fs.writeFileSync(path.join(copy, 'journal.prev.bin'), retired);
    // Replayed over the newer snapshot, the retired generation would bring back what round 1 removed.
    expect(stateOf(openStore(copy).catalog)).toEqual(stateOf(catalog));
    expect(fs.existsSync(path.join(copy, 'journal.prev.bin'))).toBe(false);
    journal.close();
  });

  it('starts a new generation after a crash between retiring the journal and opening its successor', async () => {
    const { dir, journal, catalog } = seededStore();
    journal.startCompaction(catalog.snapshot());
    while (journal.compacting) await nextTurn();
    writeRound(catalog, journal, 0);
    journal.close();
    const expected = stateOf(catalog);
    // The rename done, the new file not yet created.
    fs.renameSync(path.join(dir, 'journal.bin'), path.join(dir, 'journal.prev.bin'));

    const restarted = openStore(dir);
    expect(stateOf(restarted.catalog)).toEqual(expected);
    writeRound(restarted.catalog, restarted.journal, 1);
    const after = stateOf(restarted.catalog);
    expect(after).not.toEqual(expected);
    restarted.journal.close();
    expect(stateOf(openStore(dir).catalog)).toEqual(after);
  });

  it('reads a data directory written before generation marks as generation 0', () => {
    const dir = tempDir();
    const put = (id: number, v: string): JournalRecord => ({
      o: 'put',
      db: 'd',
      c: 'a',
      d: { _id: id, v },
    });
    fs.writeFileSync(
      path.join(dir, 'snapshot.bin'),
      Buffer.concat([
        encodeRecord({ o: 'createColl', db: 'd', c: 'a' }),
        encodeRecord(put(1, 'old')),
      ]),
    );
    fs.writeFileSync(
      path.join(dir, 'journal.bin'),
      Buffer.concat([encodeRecord(put(1, 'new')), encodeRecord(put(2, 'x'))]),
    );
    const { journal, catalog } = openStore(dir);
    expect(stateOf(catalog)['d.a']!.docs).toEqual(['{"_id":1,"v":"new"}', '{"_id":2,"v":"x"}']);
    journal.compact(catalog.snapshot());
    journal.close();
    expect(stateOf(openStore(dir).catalog)).toEqual(stateOf(catalog));
  });

  it('loses nothing when a compaction fails, and does not retry until the next start', async () => {
    const { dir, journal, catalog } = seededStore();
    journal.startCompaction(catalog.snapshot());
    // The snapshot cannot be put in place: its file is gone when the last slice renames it.
    fs.rmSync(path.join(dir, 'snapshot.bin.tmp'));
    let k = 0;
    while (journal.compacting) {
      writeRound(catalog, journal, k++);
      await nextTurn();
    }
    expect(journal.startCompaction(catalog.snapshot())).toBe(false);
    writeRound(catalog, journal, k);
    expect(stateOf(openStore(crashCopy(dir)).catalog)).toEqual(stateOf(catalog));
    journal.close();
  });

  it('keeps appending, and loses nothing, when the journal cannot be rotated', () => {
    const { dir, journal, catalog } = seededStore();
    const journalPath = path.join(dir, 'journal.bin');
    const open = vi.spyOn(fs, 'openSync').mockImplementationOnce((file) => {
      throw Object.assign(new Error(`EMFILE: too many open files, open '${String(file)}'`), {
        code: 'EMFILE',
      });
    });
    try {
      expect(journal.startCompaction(catalog.snapshot())).toBe(false);
    } finally {
      open.mockRestore();
    }
    // The retired file was put back: appends go on in the same generation.
    expect(fs.existsSync(path.join(dir, 'journal.prev.bin'))).toBe(false);
    expect(fs.existsSync(journalPath)).toBe(true);
    writeRound(catalog, journal, 0);
    expect(journal.startCompaction(catalog.snapshot())).toBe(false);
    expect(stateOf(openStore(crashCopy(dir)).catalog)).toEqual(stateOf(catalog));
    journal.close();
  });

  it('keeps appending to an unmarked new generation when its mark is torn', () => {
    const { dir, journal, catalog } = seededStore();
    // The new generation's mark is the first write: half of it reaches the file, then the disk fails.
    const write = tearNextWrite('EIO');
    try {
      expect(journal.startCompaction(catalog.snapshot())).toBe(false);
    } finally {
      write.mockRestore();
    }
    expect(fs.statSync(path.join(dir, 'journal.bin')).size).toBe(0);
    writeRound(catalog, journal, 0);
    writeRound(catalog, journal, 1);
    // Snapshot, retired generation, then the unmarked current one: every write.
    expect(stateOf(openStore(crashCopy(dir)).catalog)).toEqual(stateOf(catalog));
    journal.close();
  });

  it('stops a running compaction on close, and the next start replays everything', () => {
    const { dir, journal, catalog } = seededStore();
    journal.startCompaction(catalog.snapshot());
    writeRound(catalog, journal, 0);
    const expected = stateOf(catalog);
    journal.close();
    expect(fs.existsSync(path.join(dir, 'snapshot.bin.tmp'))).toBe(false);
    expect(stateOf(openStore(dir).catalog)).toEqual(expected);
  });
});
