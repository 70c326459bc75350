import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { Journal, decodeRecords, encodeRecord, type JournalRecord } from './journal.js';

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
    expect(fs.statSync(path.join(dir, 'journal.bin')).size).toBe(0);
    expect(new Journal(dir, 'never', silentLogger).open()).toEqual([put(7)]);
  });
});
