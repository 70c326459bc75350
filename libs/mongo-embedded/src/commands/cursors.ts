import { Long, calculateObjectSize, type Document } from 'bson';
import { cursorNotFound } from '../errors.js';
import { typedForm } from '../numeric/types.js';

const DEFAULT_FIRST_BATCH = 101;
// Leave headroom under maxBsonObjectSize (16MiB) for the reply envelope.
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;

interface OpenCursor {
  ns: string;
  docs: Document[];
  pos: number;
  /** A find's limit was reached: MongoDB knows the cursor is exhausted. */
  limitReached: boolean;
}

/** Results are materialised when the cursor opens, so getMore sees a stable snapshot. */
export class CursorStore {
  private readonly open = new Map<number, OpenCursor>();
  private nextId = 1 + Math.floor(Math.random() * 1_000_000);

  private takeBatch(c: OpenCursor, batchSize: number | undefined): Document[] {
    const want = batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER;
    const batch: Document[] = [];
    let bytes = 0;
    while (c.pos < c.docs.length && batch.length < want) {
      const d = c.docs[c.pos]!;
      bytes += calculateObjectSize(d);
      if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
      // Stored documents carry int64/double types on the side (numeric/types.ts); send them typed.
      batch.push(typedForm(d));
      c.pos++;
    }
    return batch;
  }

  /**
   * Builds the `{cursor: {id, ns, firstBatch}}` reply. A server cursor is kept while documents
   * remain, and also, as MongoDB's, when a full batch ended exactly on the last document (MongoDB
   * has not looked past it yet: the next getMore answers an empty batch and id 0), unless a
   * find's `limit` was reached. `batchSize: 0` answers an empty first batch and keeps the cursor.
   */
  first(
    ns: string,
    docs: Document[],
    batchSize?: number,
    singleBatch = false,
    limitReached = false,
  ): Document {
    const c: OpenCursor = { ns, docs, pos: 0, limitReached };
    const want = batchSize ?? DEFAULT_FIRST_BATCH;
    const firstBatch = want === 0 ? [] : this.takeBatch(c, want);
    let id = 0;
    if (!singleBatch && (want === 0 || this.staysOpen(c, firstBatch.length, want))) {
      id = this.nextId++;
      this.open.set(id, c);
    }
    return { cursor: { firstBatch, id: Long.fromNumber(id), ns }, ok: 1 };
  }

  more(id: number, ns: string, batchSize?: number): Document {
    const c = this.open.get(id);
    if (!c || c.ns !== ns) throw cursorNotFound(id);
    const nextBatch = this.takeBatch(c, batchSize);
    const done = !this.staysOpen(c, nextBatch.length, batchSize);
    if (done) this.open.delete(id);
    return { cursor: { nextBatch, id: Long.fromNumber(done ? 0 : id), ns }, ok: 1 };
  }

  private staysOpen(c: OpenCursor, returned: number, batchSize: number | undefined): boolean {
    if (c.pos < c.docs.length) return true;
    return !c.limitReached && returned > 0 && returned === batchSize;
  }

  kill(ids: number[]): { killed: number[]; notFound: number[] } {
    const killed: number[] = [];
    const notFound: number[] = [];
    for (const id of ids) (this.open.delete(id) ? killed : notFound).push(id);
    return { killed, notFound };
  }

  get size(): number {
    return this.open.size;
  }
}
