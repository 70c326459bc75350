import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logger.js';
import { tearNextWrite } from '../../test/torn-write.js';
import { Double, deserialize, serialize } from 'bson';
import { Journal } from './journal.js';
import {
  decodeRecords,
  encodeRecord,
  putRecordSize,
  writePutRecord,
  type JournalRecord,
} from './journal-records.js';

const put = (i: number): JournalRecord => ({
  o: 'put',
  db: 'd',
  c: 'c',
  d: { _id: i, v: `x${i}` },
});

describe('journal', () => {
  it('decodes records up to a torn tail', () => {
    const full = Buffer.concat([encodeRecord(put(1)), encodeRecord(put(2))]);
    const torn = Buffer.concat([full, encodeRecord(put(3)).subarray(0, 10)]);
    const { records, validLength } = decodeRecords(torn);
    expect(records.map((r) => (r.o === 'put' ? r.d._id : null))).toEqual([1, 2]);
    expect(validLength).toBe(full.length);
  });

  it('stops at a record whose checksum does not match', () => {
    const second = encodeRecord(put(2));
    second[second.length - 3] ^= 0xff;
    expect(decodeRecords(Buffer.concat([encodeRecord(put(1)), second])).records).toHaveLength(1);
  });

  it('truncates a torn tail on open so later appends stay readable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-spec-'));
    fs.writeFileSync(
      path.join(dir, 'journal.bin'),
      Buffer.concat([encodeRecord(put(1)), Buffer.from([9, 9, 9])]),
    );
    const j = new Journal(dir, 'never', silentLogger);
    expect(j.open()).toHaveLength(1);
    j.append(put(2));
    j.flush();
    j.close();
    const again = new Journal(dir, 'never', silentLogger);
    expect(again.open()).toHaveLength(2);
    again.compact([put(7)]);
    again.close();
    expect(decodeRecords(fs.readFileSync(path.join(dir, 'journal.bin'))).records).toEqual([]);
    expect(new Journal(dir, 'never', silentLogger).open()).toEqual([put(7)]);
  });
});

describe('journal torn within its first record', () => {
  it('warns, starts the file afresh, and replays what is appended after', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-spec-'));
    fs.writeFileSync(path.join(dir, 'journal.bin'), encodeRecord(put(1)).subarray(0, 9));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const j = new Journal(dir, 'never', logger);
    expect(j.open()).toEqual([]);
    expect(warnings).toEqual(['journal: ignoring 9 trailing bytes of a torn record']);
    j.append(put(2));
    j.flush();
    j.close();
    expect(new Journal(dir, 'never', silentLogger).open()).toEqual([put(2)]);
  });
});

describe('journal writes that fail', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const ids = (records: JournalRecord[]) => records.map((r) => (r.o === 'put' ? r.d._id : r.o));
  const journalBytes = (dir: string) => fs.statSync(path.join(dir, 'journal.bin')).size;
  const fresh = (policy: 'never' | 'always' | 'interval' = 'never') => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-spec-'));
    const errors: string[] = [];
    const logger = { ...silentLogger, error: (message: string) => void errors.push(message) };
    const journal = new Journal(dir, policy, logger);
    journal.open();
    journal.append(put(1));
    journal.flush();
    return { dir, journal, errors };
  };
  it('cuts a partial record off and writes it again, whole, before what comes after', () => {
    const { dir, journal } = fresh();
    const whole = journalBytes(dir);
    journal.append(put(2));
    tearNextWrite('ENOSPC');
    expect(() => journal.flush()).toThrow(/ENOSPC/);
    expect(journalBytes(dir)).toBe(whole);
    journal.append(put(3));
    journal.flush();
    journal.close();
    expect(ids(new Journal(dir, 'never', silentLogger).open())).toEqual([1, 2, 3]);
  });

  it('acknowledges nothing more once a partial record cannot be cut off', () => {
    const { dir, journal, errors } = fresh();
    journal.append(put(2));
    tearNextWrite('ENOSPC');
    vi.spyOn(fs, 'ftruncateSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
    });
    expect(() => journal.flush()).toThrow(/ENOSPC/);
    const afterFailure = journalBytes(dir);
    journal.append(put(3));
    expect(() => journal.flush()).toThrow(/partial record that could not be cut off/);
    expect(errors).toEqual([expect.stringMatching(/no write is acknowledged until a restart/)]);
    journal.close();
    // Nothing was appended after the torn record, and start-up cuts it off.
    expect(journalBytes(dir)).toBe(afterFailure);
    expect(ids(new Journal(dir, 'never', silentLogger).open())).toEqual([1]);
  });

  it('acknowledges nothing more after a failed fdatasync (always)', () => {
    const { journal } = fresh('always');
    journal.append(put(2));
    vi.spyOn(fs, 'fdatasyncSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    });
    expect(() => journal.flush()).toThrow(/fdatasync failed/);
    journal.append(put(3));
    expect(() => journal.flush()).toThrow(/fdatasync failed/);
    journal.close();
  });

  it('turns a failed interval fdatasync into refusals, not an uncaught exception', () => {
    vi.useFakeTimers();
    const { journal, errors } = fresh('interval');
    vi.spyOn(fs, 'fdatasyncSync').mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    });
    expect(() => vi.advanceTimersByTime(100)).not.toThrow();
    expect(errors).toEqual([expect.stringMatching(/fdatasync failed/)]);
    journal.append(put(2));
    expect(() => journal.flush()).toThrow(/fdatasync failed/);
    journal.close();
  });
});

describe('journal put records from raw BSON', () => {
  it('are byte for byte what encodeRecord makes of the decoded document', () => {
    const d = { _id: 7, name: 'ü-x', at: new Date(5), n: 1.5, nested: { a: [1, 'b'] } };
    const raw = serialize(d);
    for (const [db, c] of [
      ['d', 'c'],
      ['bench', 'token_requests'],
      ['dé', 'çoll'],
    ] as const) {
      const expected = encodeRecord({ o: 'put', db, c, d: deserialize(raw) });
      expect(putRecordSize(db, c, raw)).toBe(expected.length);
      const out = Buffer.alloc(expected.length + 3);
      expect(writePutRecord(out, 3, db, c, raw)).toBe(out.length);
      expect(out.subarray(3).equals(expected)).toBe(true);
    }
  });

  it('replay the received bytes, which may keep types a re-serialisation would change', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-spec-'));
    const j = new Journal(dir, 'never', silentLogger);
    j.open();
    // A double 2.0 would be re-serialised as an int32; the raw bytes keep the received type.
    const raw = serialize({ _id: 1, x: new Double(2) });
    const doc = deserialize(raw);
    j.appendPut('d', 'c', doc, raw);
    j.appendPut('d', 'c', { _id: 2, y: 'z' });
    j.append({ o: 'del', db: 'd', c: 'c', id: 3 });
    for (let i = 0; i < 3000; i++)
      j.appendPut('d', 'c', { _id: 10 + i }, serialize({ _id: 10 + i }));
    j.flush();
    j.close();
    const records = new Journal(dir, 'never', silentLogger).open();
    expect(records.slice(0, 3)).toEqual([
      { o: 'put', db: 'd', c: 'c', d: doc },
      { o: 'put', db: 'd', c: 'c', d: { _id: 2, y: 'z' } },
      { o: 'del', db: 'd', c: 'c', id: 3 },
    ]);
    expect(records).toHaveLength(3003);
    const bytes = fs.readFileSync(path.join(dir, 'journal.bin'));
    expect(bytes.includes(Buffer.from(raw))).toBe(true);
  });
});
