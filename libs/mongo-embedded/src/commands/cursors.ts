import { serialize, type Document } from 'bson';
import { cursorInUse, cursorNotFound, ExecutorError } from '../errors.js';
import { typedForm } from '../numeric/types.js';
import { restoreRawStrings } from '../storage/raw-strings.js';
import { cursorReplyBody, SLICE_DOCS, SLICE_MS, StreamedReply } from './batch-reply.js';

const DEFAULT_FIRST_BATCH = 101;
// Leave headroom under maxBsonObjectSize (16MiB) for the reply envelope.
const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
// How often a slice looks at the clock.
const CLOCK_EVERY = 64;

/** What a stored document is sent as: its projection, computed when its batch is built. */
export type Shape = (doc: Document) => Document;
const asStored: Shape = (doc) => doc;

interface OpenCursor {
  ns: string;
  /** The results, selected when the cursor opened (stored documents are replaced, never changed). */
  docs: Document[];
  shape: Shape;
  pos: number;
  /** A find's limit was reached: MongoDB knows the cursor is exhausted. */
  limitReached: boolean;
  /** A getMore is building a batch of it (in slices, so another could arrive meanwhile). */
  inUse?: boolean;
}

/**
 * The documents of a cursor are selected when it opens; each is projected and encoded only when
 * a batch takes it, and a batch is built in slices (`StreamedReply`) so that a long one does not
 * hold every other connection up.
 */
export class CursorStore {
  private readonly open = new Map<number, OpenCursor>();
  private nextId = 1 + Math.floor(Math.random() * 1_000_000);

  /** Encodes the next documents of `c`, yielding between slices; answers their encodings. */
  private *takeBatch(c: OpenCursor, batchSize: number | undefined): Generator<void, Uint8Array[]> {
    const want = batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER;
    const batch: Uint8Array[] = [];
    let bytes = 0;
    let inSlice = 0;
    let sliceStart = performance.now();
    while (c.pos < c.docs.length && batch.length < want) {
      // Stored documents carry int64/double types on the side (numeric/types.ts); send them typed.
      const doc = typedForm(c.shape(c.docs[c.pos]!));
      const encoded = serialize(doc);
      restoreRawStrings(encoded, doc);
      bytes += encoded.length;
      if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
      batch.push(encoded);
      c.pos++;
      inSlice++;
      const due =
        inSlice >= SLICE_DOCS ||
        (inSlice % CLOCK_EVERY === 0 && performance.now() - sliceStart >= SLICE_MS);
      if (due && c.pos < c.docs.length && batch.length < want) {
        yield;
        inSlice = 0;
        sliceStart = performance.now();
      }
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
    shape: Shape = asStored,
  ): StreamedReply {
    const c: OpenCursor = { ns, docs, shape, pos: 0, limitReached };
    return new StreamedReply(this.firstSteps(c, batchSize ?? DEFAULT_FIRST_BATCH, singleBatch));
  }

  private *firstSteps(
    c: OpenCursor,
    want: number,
    singleBatch: boolean,
  ): Generator<void, Uint8Array> {
    const firstBatch = want === 0 ? [] : yield* this.takeBatch(c, want);
    let id = 0;
    if (!singleBatch && (want === 0 || this.staysOpen(c, firstBatch.length, want))) {
      id = this.nextId++;
      this.open.set(id, c);
    }
    return cursorReplyBody('firstBatch', firstBatch, id, c.ns);
  }

  more(id: number, ns: string, batchSize?: number): StreamedReply {
    const c = this.open.get(id);
    if (!c || c.ns !== ns) throw cursorNotFound(id);
    // Two batches built at once would each take documents the other skipped.
    if (c.inUse) throw cursorInUse(id);
    return new StreamedReply(this.moreSteps(id, c, batchSize));
  }

  private *moreSteps(
    id: number,
    c: OpenCursor,
    batchSize: number | undefined,
  ): Generator<void, Uint8Array> {
    let nextBatch: Uint8Array[];
    // Set on the first step, which the server takes at once; released however the batch ends
    // (built, failed, or abandoned with its connection).
    c.inUse = true;
    try {
      nextBatch = yield* this.takeBatch(c, batchSize);
    } catch (err) {
      // As MongoDB, a cursor whose getMore failed is gone.
      this.open.delete(id);
      throw err instanceof ExecutorError ? err.during('getMore') : err;
    } finally {
      c.inUse = false;
    }
    const done = !this.staysOpen(c, nextBatch.length, batchSize);
    if (done) this.open.delete(id);
    return cursorReplyBody('nextBatch', nextBatch, done ? 0 : id, c.ns);
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
