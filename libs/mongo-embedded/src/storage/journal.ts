import { deserialize, serialize, type Document } from 'bson';
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
      records.push(deserialize(body, { promoteValues: true }) as JournalRecord);
    } catch {
      break;
    }
    pos = end;
  }
  return { records, validLength: pos };
}

export class Journal {
  private fd: number | undefined;
  private pending: Buffer[] = [];
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
    this.pending.push(encodeRecord(rec));
  }

  /** Records appended since the last flush. */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  get size(): number {
    return this.written;
  }

  /**
   * Called before any reply that could depend on the pending records is sent (once per event-loop
   * turn, shared by every command of that turn), so an acknowledged write is in the OS at least.
   */
  flush(): void {
    if (this.fd === undefined || this.pending.length === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    fs.writeSync(this.fd, buf);
    this.written += buf.length;
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
