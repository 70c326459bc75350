import { serialize, type Document } from 'bson';
import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Logger } from '../logger.js';
import {
  RECORD_HEADER,
  decodeRecords,
  encodeRecord,
  putRecordSize,
  writePutRecord,
  type JournalRecord,
} from './journal-records.js';
import { restoreRawStrings } from './raw-strings.js';
import { SnapshotWriter, fsyncDir, writeFully } from './snapshot-writer.js';

export type FsyncPolicy = 'always' | 'interval' | 'never';

const PENDING_INITIAL = 64 * 1024;
/** Serialised state a compaction writes per event-loop turn (a few milliseconds of work). */
const SNAPSHOT_SLICE_BYTES = 256 * 1024;

export interface JournalOptions {
  /** Serialised state a compaction writes per event-loop turn. */
  sliceBytes?: number;
}

/**
 * The write-ahead journal and its snapshot (ADR 0722). Files in the data directory:
 *
 * - `snapshot.bin`: the state, as records, up to some generation of the journal;
 * - `journal.bin`: the current generation's records, appended as commands commit;
 * - `journal.prev.bin`: while a compaction runs, the generation before, which the snapshot being
 *   written replaces; removed once that snapshot is in place;
 * - `snapshot.bin.tmp`: the snapshot being written, ignored when starting.
 *
 * Starting replays the snapshot, then each journal file whose generation it does not cover.
 */
export class Journal {
  private fd: number | undefined;
  /** Encoded records not yet written: `pending[0, pendingLength)`, one buffer reused across flushes. */
  private pending = Buffer.allocUnsafe(PENDING_INITIAL);
  private pendingLength = 0;
  private written = 0;
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  /** Generation of `journal.bin`. */
  private generation = 0;
  private compaction: SnapshotWriter | undefined;
  private nextSlice: NodeJS.Immediate | undefined;
  /** Set when a compaction failed: the journal keeps growing until the next start compacts it. */
  private compactionFailed = false;
  /**
   * Set once the file's end is no longer known to be whole (a torn record that could not be cut
   * off, a failed sync): every later flush throws, so nothing more is acknowledged until a restart
   * replays what the file holds.
   */
  private broken: Error | undefined;
  private readonly sliceBytes: number;
  private readonly journalPath: string;
  private readonly previousPath: string;
  private readonly snapshotPath: string;

  constructor(
    private readonly dir: string,
    private readonly policy: FsyncPolicy,
    private readonly logger: Logger,
    options: JournalOptions = {},
  ) {
    fs.mkdirSync(dir, { recursive: true });
    this.sliceBytes = options.sliceBytes ?? SNAPSHOT_SLICE_BYTES;
    this.journalPath = path.join(dir, 'journal.bin');
    this.previousPath = path.join(dir, 'journal.prev.bin');
    this.snapshotPath = path.join(dir, 'snapshot.bin');
  }

  /**
   * Loads the snapshot and the journal generations it does not cover, and opens the journal for
   * appending, cutting off a torn tail.
   */
  open(): JournalRecord[] {
    const snapshot = fs.existsSync(this.snapshotPath)
      ? decodeRecords(fs.readFileSync(this.snapshotPath))
      : { records: [], generation: 0 };
    const covered = snapshot.generation ?? 0;
    const records = [...snapshot.records];
    let freshGeneration = covered;
    if (fs.existsSync(this.previousPath)) {
      const previous = decodeRecords(fs.readFileSync(this.previousPath));
      const generation = previous.generation ?? 0;
      if (generation >= covered) {
        records.push(...previous.records);
        freshGeneration = generation + 1;
      } else {
        // A compaction ended between its snapshot's rename and this file's removal.
        fs.rmSync(this.previousPath);
      }
    }
    let fresh = true;
    if (fs.existsSync(this.journalPath)) {
      const buf = fs.readFileSync(this.journalPath);
      const decoded = decodeRecords(buf);
      if (decoded.validLength < buf.length) {
        this.logger.warn(
          `journal: ignoring ${buf.length - decoded.validLength} trailing bytes of a torn record`,
        );
        fs.truncateSync(this.journalPath, decoded.validLength);
      }
      // Unmarked: written before marks, or after a mark could not be written; newest either way.
      if (decoded.validLength > 0 && (decoded.generation ?? Infinity) >= covered) {
        records.push(...decoded.records);
        this.generation = decoded.generation ?? freshGeneration;
        this.written = decoded.validLength;
        fresh = false;
      } else {
        // Empty, torn within its first record, or already in the snapshot: starts afresh.
        fs.truncateSync(this.journalPath, 0);
      }
    }
    this.fd = fs.openSync(this.journalPath, 'a');
    if (fresh) {
      this.generation = freshGeneration;
      this.writeMark();
      fs.fdatasyncSync(this.fd);
    }
    if (this.policy === 'interval') {
      this.timer = setInterval(() => this.sync(), 100);
      this.timer.unref();
    }
    return records;
  }

  append(rec: JournalRecord): void {
    const body = serialize(rec, { checkKeys: false });
    restoreRawStrings(body, rec);
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

  /** Bytes in the current generation's file. */
  get size(): number {
    return this.written;
  }

  get compacting(): boolean {
    return this.compaction !== undefined;
  }

  /**
   * Called before any reply that could depend on the pending records is sent (once per event-loop
   * turn, shared by every command of that turn), so an acknowledged write is in the OS at least.
   */
  flush(): void {
    if (this.fd === undefined || this.pendingLength === 0) return;
    if (this.broken) throw this.broken;
    const length = this.pendingLength;
    try {
      writeFully(this.fd, this.pending, length);
    } catch (err) {
      // Part of a record may be in the file; anything appended after it would never replay. Cut
      // back to the last whole record and keep the records pending: the next flush writes them
      // again, in order, before anything later (their commands are applied in memory already).
      this.cutBackToWhole(err);
      throw err;
    }
    this.pendingLength = 0;
    this.written += length;
    // Don't keep a buffer grown by one huge turn.
    if (this.pending.length > 16 * PENDING_INITIAL)
      this.pending = Buffer.allocUnsafe(PENDING_INITIAL);
    if (this.policy === 'always') this.syncOrBreak();
    else this.dirty = true;
  }

  private cutBackToWhole(cause: unknown): void {
    try {
      fs.ftruncateSync(this.fd!, this.written);
    } catch (err) {
      this.break(
        `a failed write left a partial record that could not be cut off (${(err as Error).message})`,
        cause,
      );
    }
  }

  /**
   * After a failed fsync the kernel may have dropped the pages it could not write and report the
   * next fsync as a success: the file can no longer be trusted to hold what was written.
   */
  private syncOrBreak(): void {
    try {
      fs.fdatasyncSync(this.fd!);
    } catch (err) {
      this.break(`fdatasync failed (${(err as Error).message})`, err);
      throw this.broken;
    }
  }

  private break(reason: string, cause: unknown): void {
    this.broken = new Error(
      `journal: ${reason}; no write is acknowledged until a restart replays the journal`,
      { cause },
    );
    this.logger.error(this.broken.message);
  }

  private sync(): void {
    if (this.fd !== undefined && this.dirty && !this.broken) {
      this.dirty = false;
      try {
        this.syncOrBreak();
      } catch {
        // Logged by syncOrBreak; the next flush refuses to acknowledge anything.
      }
    }
  }

  /**
   * Writes a snapshot of everything journaled so far in one go and empties the journal: at start,
   * before the server listens. While serving, `startCompaction` does the same a slice at a time.
   */
  compact(state: Iterable<JournalRecord>): void {
    if (this.fd === undefined) return;
    this.abandonCompaction();
    this.flush();
    const covered = this.generation + 1;
    const writer = new SnapshotWriter(this.snapshotPath, covered, state);
    writer.writeAll();
    writer.install(this.dir);
    // The snapshot covers both journal files now: a crash from here on skips them.
    fs.rmSync(this.previousPath, { force: true });
    fs.ftruncateSync(this.fd, 0);
    this.generation = covered;
    this.written = 0;
    this.writeMark();
    fs.fsyncSync(this.fd);
  }

  /**
   * Starts a snapshot without stopping the server (ADR 0722): the journal moves to a new
   * generation, and the snapshot of the live state is written a slice per event-loop turn while
   * commands go on. Documents are never mutated in place, so each record is a consistent document;
   * the snapshot as a whole is fuzzy (it sees writes made while it runs), which replay makes exact:
   * every record is idempotent and the new generation holds every write since the rotation.
   * Returns false when one is already running or cannot start.
   */
  startCompaction(state: Iterable<JournalRecord>): boolean {
    if (this.fd === undefined || this.compaction || this.compactionFailed) return false;
    this.flush();
    try {
      // Left by a compaction stopped at close: only the start-up compaction may take it in.
      if (fs.existsSync(this.previousPath)) throw new Error(`${this.previousPath} exists`);
      this.rotate();
      this.compaction = new SnapshotWriter(this.snapshotPath, this.generation, state);
    } catch (err) {
      this.failCompaction(err);
      return false;
    }
    this.logger.info(`journal: compacting into a snapshot (generation ${this.generation})`);
    this.nextSlice = setImmediate(this.writeSlice);
    return true;
  }

  /**
   * Retires `journal.bin` as `journal.prev.bin` and opens the next generation in its place. Appends
   * never stop: if the new file cannot be opened the old one is put back, and a new file whose mark
   * could not be written is left empty (an unmarked current journal is always replayed).
   */
  private rotate(): void {
    const retired = this.fd!;
    // The retired generation is whole on disk before anything depends on the new one.
    fs.fdatasyncSync(retired);
    fs.renameSync(this.journalPath, this.previousPath);
    try {
      this.fd = fs.openSync(this.journalPath, 'a');
    } catch (err) {
      fs.renameSync(this.previousPath, this.journalPath);
      throw err;
    }
    fs.closeSync(retired);
    this.generation++;
    this.written = 0;
    try {
      this.writeMark();
      fs.fdatasyncSync(this.fd);
      fsyncDir(this.dir);
    } catch (err) {
      fs.ftruncateSync(this.fd);
      this.written = 0;
      throw err;
    }
  }

  private readonly writeSlice = (): void => {
    this.nextSlice = undefined;
    const writer = this.compaction;
    if (!writer) return;
    try {
      if (!writer.write(this.sliceBytes)) {
        this.nextSlice = setImmediate(this.writeSlice);
        return;
      }
      writer.install(this.dir);
      // Not synced: a retired journal that outlives a crash is older than the snapshot, so skipped.
      fs.rmSync(this.previousPath, { force: true });
      this.compaction = undefined;
      this.logger.info(
        `journal: snapshot of ${writer.records} records (${writer.bytes} bytes) written in ${writer.slices} slices`,
      );
    } catch (err) {
      this.failCompaction(err);
    }
  };

  /** Nothing is lost: the snapshot and the journal files on disk still replay every write. */
  private failCompaction(err: unknown): void {
    this.compactionFailed = true;
    this.abandonCompaction();
    this.logger.error(
      `journal: compaction failed, the journal grows until the next start: ${(err as Error).stack ?? String(err)}`,
    );
  }

  /** Drops a running compaction's partial snapshot; the files on disk still replay completely. */
  private abandonCompaction(): void {
    if (this.nextSlice) clearImmediate(this.nextSlice);
    this.nextSlice = undefined;
    this.compaction?.abandon();
    this.compaction = undefined;
  }

  private writeMark(): void {
    const mark = encodeRecord({ o: 'gen', gen: this.generation });
    writeFully(this.fd!, mark, mark.length);
    this.written += mark.length;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.abandonCompaction();
    if (this.fd === undefined) return;
    try {
      // A broken journal takes nothing more: its pending records were never acknowledged.
      if (!this.broken) {
        this.flush();
        fs.fsyncSync(this.fd);
      }
    } finally {
      fs.closeSync(this.fd);
      this.fd = undefined;
    }
  }
}
