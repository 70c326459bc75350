import { Long, serialize, type Document } from 'bson';

/**
 * A reply produced over several turns of the event loop: each `next()` of `steps` does one slice
 * of the work and the last returns the reply's BSON body. The server runs the first slice at once
 * and the others from `setImmediate`, so other connections' commands are answered in between
 * (ADR 0617).
 */
export class StreamedReply {
  constructor(readonly steps: Iterator<void, Uint8Array>) {}
}

/** A slice ends after this many documents, or once it has taken `SLICE_MS`, whichever comes first. */
export const SLICE_DOCS = 1000;
export const SLICE_MS = 10;

/** The elements of a document's encoding, without its length prefix and terminating 0. */
const elementsOf = (doc: Document): Uint8Array => {
  const b = serialize(doc);
  return b.subarray(4, b.length - 1);
};

const OK = elementsOf({ ok: 1 });
const CURSOR_KEY = Buffer.from('cursor\0', 'latin1');
const KEYS: Buffer[] = [];
const keyOf = (i: number): Buffer => (KEYS[i] ??= Buffer.from(`${i}\0`, 'latin1'));

/**
 * The bytes of `{cursor: {<field>: [...docs], id, ns}, ok: 1}` from the documents' own encodings,
 * exactly what `serialize` gives for that document: each document of a batch is encoded once, in
 * the slice that produced it, and only copied here.
 */
export function cursorReplyBody(
  field: 'firstBatch' | 'nextBatch',
  docs: Uint8Array[],
  id: number,
  ns: string,
): Uint8Array {
  const fieldKey = Buffer.from(`${field}\0`, 'latin1');
  const tail = elementsOf({ id: Long.fromNumber(id), ns });
  let arrayLen = 5;
  for (let i = 0; i < docs.length; i++) arrayLen += 1 + keyOf(i).length + docs[i]!.length;
  const cursorLen = 4 + 1 + fieldKey.length + arrayLen + tail.length + 1;
  const total = 4 + 1 + CURSOR_KEY.length + cursorLen + OK.length + 1;
  const out = Buffer.allocUnsafe(total);
  let p = out.writeInt32LE(total, 0);
  out[p++] = 0x03;
  p += CURSOR_KEY.copy(out, p);
  p = out.writeInt32LE(cursorLen, p);
  out[p++] = 0x04;
  p += fieldKey.copy(out, p);
  p = out.writeInt32LE(arrayLen, p);
  for (let i = 0; i < docs.length; i++) {
    out[p++] = 0x03;
    p += keyOf(i).copy(out, p);
    out.set(docs[i]!, p);
    p += docs[i]!.length;
  }
  out[p++] = 0;
  out.set(tail, p);
  p += tail.length;
  out[p++] = 0;
  out.set(OK, p);
  p += OK.length;
  out[p++] = 0;
  return out;
}
