import { deserialize, serialize, type Document } from 'bson';
import { crc32 } from 'node:zlib';
import { rememberNumericTypes } from '../numeric/types.js';
import { restoreRawStrings } from './raw-strings.js';

// The journal's and snapshot's file format: length + CRC32 + BSON per record.

/**
 * Every record is idempotent (put-by-_id, delete-by-_id, create/drop), so replaying a journal
 * over a snapshot that already contains some of its effects converges to the same state.
 */
export type JournalRecord =
  | { o: 'createColl'; db: string; c: string; opts?: Document }
  | { o: 'dropColl'; db: string; c: string }
  | { o: 'collOpts'; db: string; c: string; opts: Document }
  | { o: 'dropDb'; db: string }
  | { o: 'createIndex'; db: string; c: string; spec: Document }
  | { o: 'dropIndex'; db: string; c: string; name: string }
  | { o: 'hideIndex'; db: string; c: string; name: string; hidden: boolean }
  | { o: 'ttlIndex'; db: string; c: string; name: string; seconds: number }
  | {
      o: 'uniqueIndex';
      db: string;
      c: string;
      name: string;
      prepareUnique?: boolean;
      unique?: true;
    }
  | { o: 'put'; db: string; c: string; d: Document }
  | { o: 'del'; db: string; c: string; id: unknown };

/**
 * The first record of every journal and snapshot file written since incremental compaction (ADR
 * 0722): a journal's own generation, or for a snapshot the generation of the first journal it does
 * not cover. A snapshot or retired journal without one (written before) is generation 0; a current
 * journal without one is always replayed. Never replayed itself.
 */
export interface GenerationMark {
  o: 'gen';
  gen: number;
}

export const RECORD_HEADER = 8; // uint32 length of BSON payload + uint32 crc32 of payload
export function encodeRecord(rec: JournalRecord | GenerationMark): Buffer {
  const body = serialize(rec, { checkKeys: false });
  restoreRawStrings(body, rec);
  const head = Buffer.allocUnsafe(RECORD_HEADER);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]);
}

/**
 * Decodes records up to the first incomplete or corrupt one. After a kill -9 the tail may be a
 * torn write; everything before it was acknowledged only after being written, so it is kept.
 */
export function decodeRecords(buf: Buffer): {
  records: JournalRecord[];
  validLength: number;
  /** The file's generation mark; undefined when its first record is not one. */
  generation: number | undefined;
} {
  const records: JournalRecord[] = [];
  let generation: number | undefined;
  let pos = 0;
  while (pos + RECORD_HEADER <= buf.length) {
    const len = buf.readUInt32LE(pos);
    const sum = buf.readUInt32LE(pos + 4);
    const end = pos + RECORD_HEADER + len;
    if (len < 5 || end > buf.length) break;
    const body = buf.subarray(pos + RECORD_HEADER, end);
    if (crc32(body) !== sum) break;
    try {
      const rec = deserialize(body, {
        promoteValues: true,
        validation: { utf8: false },
      }) as JournalRecord | GenerationMark;
      // A put's int64 / integral double values are remembered from its bytes (numeric/types.ts).
      if (rec.o === 'put') rememberNumericTypes(rec.d, body, 'd');
      if (rec.o === 'gen') {
        if (pos === 0) generation = rec.gen;
      } else records.push(rec);
    } catch {
      break;
    }
    pos = end;
  }
  return { records, validLength: pos, generation };
}

/**
 * A `put` record built around a document's BSON as received, byte for byte what
 * `encodeRecord({ o: 'put', db, c, d })` produces when `d` serialises to those same bytes.
 * Writes at `pos` in `out` (which must have room: see `putRecordSize`); returns the end.
 */
export function writePutRecord(
  out: Buffer,
  pos: number,
  db: string,
  c: string,
  rawDoc: Uint8Array,
): number {
  const start = pos;
  let p = pos + RECORD_HEADER + 4;
  p = writeStringElement(out, p, 'o', 'put');
  p = writeStringElement(out, p, 'db', db);
  p = writeStringElement(out, p, 'c', c);
  out[p++] = 0x03; // embedded document
  out[p++] = 0x64; // 'd'
  out[p++] = 0;
  out.set(rawDoc, p);
  p += rawDoc.length;
  out[p++] = 0;
  const bodyStart = start + RECORD_HEADER;
  out.writeUInt32LE(p - bodyStart, bodyStart);
  out.writeUInt32LE(p - bodyStart, start);
  out.writeUInt32LE(crc32(out.subarray(bodyStart, p)), start + 4);
  return p;
}

export function putRecordSize(db: string, c: string, rawDoc: Uint8Array): number {
  // Each string element: type, key, 0, int32 length, value, 0.
  const strings = 3 * 7 + 'o'.length + 'put'.length + 'db'.length + 'c'.length;
  const names = Buffer.byteLength(db) + Buffer.byteLength(c);
  // header, int32 document size, the strings, 'd' element (type, 'd', 0, document), EOO
  return RECORD_HEADER + 4 + strings + names + 3 + rawDoc.length + 1;
}

function writeStringElement(out: Buffer, p: number, key: string, value: string): number {
  out[p++] = 0x02;
  p += out.write(key, p, 'utf8');
  out[p++] = 0;
  const len = out.write(value, p + 4, 'utf8');
  out.writeInt32LE(len + 1, p);
  p += 4 + len;
  out[p++] = 0;
  return p;
}
