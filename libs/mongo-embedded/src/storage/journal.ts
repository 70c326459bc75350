import { deserialize, serialize, type Document } from 'bson';
import { rememberNumericTypes } from '../numeric/types.js';
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from '../logger.js';

export type FsyncPolicy = 'always' | 'interval' | 'never';

/**
 * Every record is idempotent (put-by-_id, delete-by-_id, create/drop), so replaying a journal
 * over a snapshot that already contains some of its effects converges to the same state.
 */
export type JournalRecord =
  | { o: 'createColl'; db: string; c: string }
  | { o: 'dropColl'; db: string; c: string }
  | { o: 'dropDb'; db: string }
  | { o: 'createIndex'; db: string; c: string; spec: Document }
  | { o: 'dropIndex'; db: string; c: string; name: string }
  | { o: 'put'; db: string; c: string; d: Document }
  | { o: 'del'; db: string; c: string; id: unknown };

const RECORD_HEADER = 8; // uint32 length of BSON payload + uint32 crc32 of payload
const PENDING_INITIAL = 64 * 1024;

export function encodeRecord(rec: JournalRecord): Buffer {
  const body = serialize(rec, { checkKeys: false });
  const head = Buffer.allocUnsafe(RECORD_HEADER);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]);
}

/**
 * Decodes records up to the first incomplete or corrupt one. After a kill -9 the tail may be a
 * torn write; everything before it was acknowledged only after being written, so it is kept.
 */
export function decodeRecords(buf: Buffer): { records: JournalRecord[]; validLength: number } {
  const records: JournalRecord[] = [];
  let pos = 0;
  while (pos + RECORD_HEADER <= buf.length) {
    const len = buf.readUInt32LE(pos);
    const sum = buf.readUInt32LE(pos + 4);
    const end = pos + RECORD_HEADER + len;
    if (len < 5 || end > buf.length) break;
    const body = buf.subarray(pos + RECORD_HEADER, end);
    if (crc32(body) !== sum) break;
    try {
      const rec = deserialize(body, { promoteValues: true }) as JournalRecord;
      // A put's int64 / integral double values are remembered from its bytes (numeric/types.ts).
      if (rec.o === 'put') rememberNumericTypes(rec.d, body, 'd');
      records.push(rec);
    } catch {
      break;
    }
    pos = end;
  }
  return { records, validLength: pos };
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

export class Journal {
  private fd: number | undefined;
  /** Encoded records not yet written: `pending[0, pendingLength)`, one buffer reused across flushes. */
  private pending = Buffer.allocUnsafe(PENDING_INITIAL);
  private pendingLength = 0;
  private written = 0;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly journalPath: string;
  private readonly snapshotPath: string;

  constructor(
    dir: string,
    private readonly policy: FsyncPolicy,
    private readonly logger: Logger,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.journalPath = path.join(dir, 'journal.bin');
    this.snapshotPath = path.join(dir, 'snapshot.bin');
  }

  /** Loads snapshot + journal records and opens the journal for appending, cutting off a torn tail. */
  open(): JournalRecord[] {
    const snap = fs.existsSync(this.snapshotPath)
      ? decodeRecords(fs.readFileSync(this.snapshotPath)).records
      : [];
    let journal: JournalRecord[] = [];
    if (fs.existsSync(this.journalPath)) {
      const buf = fs.readFileSync(this.journalPath);
      const decoded = decodeRecords(buf);
      journal = decoded.records;
      if (decoded.validLength < buf.length) {
        this.logger.warn(
          `journal: ignoring ${buf.length - decoded.validLength} trailing bytes of a torn record`,
        );
        fs.truncateSync(this.journalPath, decoded.validLength);
      }
      this.written = decoded.validLength;
    }
    this.fd = fs.openSync(this.journalPath, 'a');
    if (this.policy === 'interval') {
      this.timer = setInterval(() => this.sync(), 100);
      this.timer.unref();
    }
    return [...snap, ...journal];
  }

  append(rec: JournalRecord): void {
    const body = serialize(rec, { checkKeys: false });
    const at = this.reserve(RECORD_HEADER + body.length);
    this.pending.writeUInt32LE(body.length, at);
    this.pending.writeUInt32LE(crc32(body), at + 4);
    this.pending.set(body, at + RECORD_HEADER);
    this.pendingLength = at + RECORD_HEADER + body.length;
  }

  /**
   * A `put` of `doc`. With `rawDoc` (the exact bytes `doc` was decoded from) those bytes are
   * journaled instead of serialising `doc` again: replay decodes them to the same document.
   */
  appendPut(db: string, c: string, doc: Document, rawDoc?: Uint8Array): void {
    if (!rawDoc) return this.append({ o: 'put', db, c, d: doc });
    const at = this.reserve(putRecordSize(db, c, rawDoc));
    this.pendingLength = writePutRecord(this.pending, at, db, c, rawDoc);
  }

  /** Makes room for `bytes` more and returns where they start. */
  private reserve(bytes: number): number {
    const need = this.pendingLength + bytes;
    if (need > this.pending.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.pending.length * 2));
      this.pending.copy(grown, 0, 0, this.pendingLength);
      this.pending = grown;
    }
    return this.pendingLength;
  }

  /** Records appended since the last flush. */
  get hasPending(): boolean {
    return this.pendingLength > 0;
  }

  get size(): number {
    return this.written;
  }

  /**
   * Called before any reply that could depend on the pending records is sent (once per event-loop
   * turn, shared by every command of that turn), so an acknowledged write is in the OS at least.
   */
  flush(): void {
    if (this.fd === undefined || this.pendingLength === 0) return;
    const length = this.pendingLength;
    this.pendingLength = 0;
    let off = 0;
    while (off < length) off += fs.writeSync(this.fd, this.pending, off, length - off);
    this.written += length;
    // Don't keep a buffer grown by one huge turn.
    if (this.pending.length > 16 * PENDING_INITIAL)
      this.pending = Buffer.allocUnsafe(PENDING_INITIAL);
    if (this.policy === 'always') fs.fdatasyncSync(this.fd);
    else this.dirty = true;
  }

  private sync(): void {
    if (this.fd !== undefined && this.dirty) {
      this.dirty = false;
      fs.fdatasyncSync(this.fd);
    }
  }

  /** Writes a full snapshot atomically (tmp + rename) and only then empties the journal. */
  compact(state: Iterable<JournalRecord>): void {
    if (this.fd === undefined) return;
    this.flush();
    const tmp = `${this.snapshotPath}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      let batch: Buffer[] = [];
      let batchBytes = 0;
      for (const rec of state) {
        const b = encodeRecord(rec);
        batch.push(b);
        batchBytes += b.length;
        if (batchBytes > 4 * 1024 * 1024) {
          fs.writeSync(fd, Buffer.concat(batch));
          batch = [];
          batchBytes = 0;
        }
      }
      if (batch.length) fs.writeSync(fd, Buffer.concat(batch));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.snapshotPath);
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
    this.written = 0;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.flush();
    if (this.fd !== undefined) {
      fs.fsyncSync(this.fd);
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
