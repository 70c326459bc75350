/**
 * Byte-level helpers for BSON documents already validated by a successful `deserialize`, so the
 * journal can store a received document without serialising its decoded form again.
 */

export function i32(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24);
}

/** Size of an element's value at `p` (after its type byte and key), or -1 for an unknown type. */
export function valueSize(b: Uint8Array, type: number, p: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return 8;
    case 0x02: // string
    case 0x0d: // code
    case 0x0e: // symbol
      return 4 + i32(b, p);
    case 0x03: // document
    case 0x04: // array
    case 0x0f: // code with scope
      return i32(b, p);
    case 0x05: // binary: length, subtype, bytes
      return 5 + i32(b, p);
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // max key
    case 0xff: // min key
      return 0;
    case 0x07: // ObjectId
      return 12;
    case 0x08: // boolean
      return 1;
    case 0x10: // int32
      return 4;
    case 0x13: // decimal128
      return 16;
    case 0x0b: {
      // regex: two cstrings
      let q = b.indexOf(0, p);
      q = b.indexOf(0, q + 1);
      return q < 0 ? -1 : q + 1 - p;
    }
    case 0x0c: // DBPointer: string + 12-byte id
      return 4 + i32(b, p) + 12;
    default:
      return -1;
  }
}

/**
 * The same document with its single top-level `_id` element moved to the front (what
 * `{ _id, ...rest }` does to the decoded form), or undefined if there is no single `_id` or the
 * bytes hold anything unexpected.
 */
export function moveIdFirst(raw: Uint8Array): Uint8Array | undefined {
  const end = raw.length - 1; // the document's terminating 0
  let p = 4;
  let idStart = -1;
  let idEnd = -1;
  while (p < end) {
    const start = p;
    const type = raw[p++]!;
    const keyEnd = raw.indexOf(0, p);
    if (keyEnd < 0 || keyEnd >= end) return undefined;
    const isId = keyEnd - p === 3 && raw[p] === 0x5f && raw[p + 1] === 0x69 && raw[p + 2] === 0x64;
    p = keyEnd + 1;
    const size = valueSize(raw, type, p);
    if (size < 0 || p + size > end) return undefined;
    p += size;
    if (isId) {
      if (idStart >= 0) return undefined; // a repeated _id: leave it to the serialiser
      idStart = start;
      idEnd = p;
    }
  }
  if (p !== end || idStart < 0) return undefined;
  if (idStart === 4) return raw;
  const out = new Uint8Array(raw.length);
  out.set(raw.subarray(0, 4), 0);
  out.set(raw.subarray(idStart, idEnd), 4);
  out.set(raw.subarray(4, idStart), 4 + idEnd - idStart);
  out.set(raw.subarray(idEnd), idEnd);
  return out;
}
