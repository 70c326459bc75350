import fs from 'node:fs';
import { encodeRecord, type JournalRecord } from './journal-records.js';

/** A snapshot written to `<path>.tmp`, in one go or a slice at a time, then renamed into place. */
export class SnapshotWriter {
  private readonly tmpPath: string;
  private fd: number | undefined;
  private readonly source: Iterator<JournalRecord>;
  records = 0;
  bytes = 0;
  slices = 0;

  constructor(
    private readonly path: string,
    generation: number,
    state: Iterable<JournalRecord>,
  ) {
    this.tmpPath = `${path}.tmp`;
    this.fd = fs.openSync(this.tmpPath, 'w');
    this.source = state[Symbol.iterator]();
    this.append([encodeRecord({ o: 'gen', gen: generation })]);
  }

  /** Writes about `budget` bytes of records; true once the state is exhausted. */
  write(budget: number): boolean {
    this.slices++;
    const batch: Buffer[] = [];
    let size = 0;
    while (size < budget) {
      const next = this.source.next();
      if (next.done) {
        this.append(batch);
        return true;
      }
      const record = encodeRecord(next.value);
      batch.push(record);
      size += record.length;
      this.records++;
    }
    this.append(batch);
    return false;
  }

  writeAll(): void {
    while (!this.write(4 * 1024 * 1024));
  }

  /** Makes the snapshot durable and puts it in place (the rename is the commit point). */
  install(dir: string): void {
    fs.fsyncSync(this.fd!);
    fs.closeSync(this.fd!);
    this.fd = undefined;
    fs.renameSync(this.tmpPath, this.path);
    fsyncDir(dir);
  }

  abandon(): void {
    if (this.fd === undefined) return;
    fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(this.tmpPath, { force: true });
  }

  private append(batch: Buffer[]): void {
    if (batch.length === 0) return;
    const buf = batch.length === 1 ? batch[0]! : Buffer.concat(batch);
    writeFully(this.fd!, buf, buf.length);
    this.bytes += buf.length;
  }
}

/** Makes renames and new files in `dir` durable (Linux: fsync on the directory). */
export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `buf[0, length)` at the file's position, however many calls the kernel takes. */
export function writeFully(fd: number, buf: Uint8Array, length: number): void {
  let off = 0;
  while (off < length) off += fs.writeSync(fd, buf, off, length - off);
}
