import { isUtf8 } from 'node:buffer';
import { Binary, type Document } from 'bson';
import { i32, valueSize } from './raw-bson.js';

/**
 * Strings that are not valid UTF-8 (ADR 0614). MongoDB stores and returns their bytes unchanged;
 * a JavaScript string cannot hold them, so a stored document keeps the U+FFFD form mingo
 * computes with, and beside it (like its numeric types, numeric/types.ts) the bytes of each such
 * string by dotted path. Whatever sends or journals the document puts the bytes back: the string
 * is replaced by a marker `Binary` of the same bytes (a binary element and a string element of n
 * bytes have the same size), and after serialising, `restoreRawStrings` turns each marker element
 * back into a string element in place.
 */
interface RawString {
  text: string;
  bytes: Uint8Array;
}

const RAW = new WeakMap<Document, Map<string, RawString>>();
const MARKERS = new WeakSet<Binary>();
/** Until a first such string arrives, serialised replies and records are not walked at all. */
let seen = false;

const hasHighByte = (b: Uint8Array, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (b[i]! >= 0x80) return true;
  return false;
};

/** Invalid string values of the document at `start`, by dotted path; false on unexpected bytes. */
function scan(b: Uint8Array, start: number, prefix: string, out: Map<string, RawString>): boolean {
  const end = start + i32(b, start) - 1;
  let p = start + 4;
  while (p < end) {
    const type = b[p++]!;
    const keyEnd = b.indexOf(0, p);
    if (keyEnd < 0 || keyEnd >= end) return false;
    const keyStart = p;
    p = keyEnd + 1;
    const size = valueSize(b, type, p);
    if (size < 0 || p + size > end) return false;
    if (type === 0x02 && hasHighByte(b, p + 4, p + size - 1)) {
      const bytes = b.subarray(p + 4, p + size - 1);
      if (!isUtf8(bytes)) {
        const key = Buffer.from(b.buffer, b.byteOffset + keyStart, keyEnd - keyStart).toString();
        out.set(prefix ? `${prefix}.${key}` : key, {
          text: Buffer.from(bytes).toString('utf8'),
          bytes: Uint8Array.from(bytes),
        });
      }
    } else if (type === 0x03 || type === 0x04) {
      const key = Buffer.from(b.buffer, b.byteOffset + keyStart, keyEnd - keyStart).toString();
      if (!scan(b, p, prefix ? `${prefix}.${key}` : key, out)) return false;
    }
    p += size;
  }
  return true;
}

/** Records the invalid UTF-8 strings of `doc` from the bytes it was decoded from. */
export function rememberRawStrings(doc: Document, raw: Uint8Array, under = ''): void {
  if (raw.length < 5 || !hasHighByte(raw, 4, raw.length)) return;
  const found = new Map<string, RawString>();
  if (!scan(raw, 0, '', found) || found.size === 0) return;
  seen = true;
  if (!under) return void RAW.set(doc, found);
  const strip = `${under}.`;
  const mine = new Map<string, RawString>();
  for (const [path, r] of found) if (path.startsWith(strip)) mine.set(path.slice(strip.length), r);
  if (mine.size) RAW.set(doc, mine);
}

/**
 * On `update` and `findAndModify` commands: the invalid UTF-8 strings of the command by dotted
 * path (`updates.0.u.$set.s`), read from its bytes, so the values an update writes keep theirs.
 */
const RAW_ARGS: unique symbol = Symbol('rawStringArgs');
type WithRawArgs = Record<symbol, Map<string, RawString> | undefined>;

export function attachRawArgs(command: Document, raw: Uint8Array, prefix = ''): void {
  if (raw.length < 5 || !hasHighByte(raw, 4, raw.length)) return;
  const found = new Map<string, RawString>();
  if (!scan(raw, 0, '', found) || found.size === 0) return;
  seen = true;
  let all = (command as WithRawArgs)[RAW_ARGS];
  if (!all) {
    all = new Map();
    Object.defineProperty(command, RAW_ARGS, { value: all, enumerable: false, configurable: true });
  }
  for (const [path, r] of found) all.set(prefix ? `${prefix}.${path}` : path, r);
}

/** `to`, a copy of the command `from` (an OP_MSG body merged with its sequences), keeps its strings. */
export function shareRawArgs(from: Document, to: Document): void {
  const all = (from as WithRawArgs)[RAW_ARGS];
  if (all)
    Object.defineProperty(to, RAW_ARGS, { value: all, enumerable: false, configurable: true });
}

/**
 * Adds to `doc` the strings an update statement wrote: `$set`/`$setOnInsert` arguments, a
 * replacement's fields and, for an upsert (`query` given), the filter's equalities; each only
 * while the document holds that very text at that path.
 */
export function addRawArgs(doc: Document, command: Document, update: string, query?: string): void {
  const all = (command as WithRawArgs)[RAW_ARGS];
  if (!all) return;
  let mine = RAW.get(doc);
  const add = (path: string, r: RawString) => {
    if (path.includes('$') || valueAt(doc, path.split('.')) !== r.text) return;
    if (!mine) RAW.set(doc, (mine = new Map()));
    mine.set(path, r);
  };
  for (const [path, r] of all) {
    if (path.startsWith(`${update}.`)) {
      const rest = path.slice(update.length + 1);
      const op = ['$set', '$setOnInsert'].find((o) => rest.startsWith(`${o}.`));
      if (op) add(rest.slice(op.length + 1), r);
      else if (!rest.startsWith('$')) add(rest, r);
    } else if (query && path.startsWith(`${query}.`)) add(path.slice(query.length + 1), r);
  }
}

function valueAt(doc: unknown, parts: string[]): unknown {
  let cur = doc;
  for (const part of parts) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * `to`, computed from `from` (an update, a copy, an aggregation stage), keeps the bytes of each
 * string still at the same path with the same text; a string the computation changed is sent as
 * its JavaScript value.
 */
export function carryRawStrings(from: Document, to: Document): void {
  const raw = RAW.get(from);
  if (!raw) return;
  let kept: Map<string, RawString> | undefined;
  for (const [path, r] of raw)
    if (valueAt(to, path.split('.')) === r.text) (kept ??= new Map()).set(path, r);
  if (kept) RAW.set(to, kept);
  else RAW.delete(to);
}

function copyWith(node: unknown, parts: string[], i: number, r: RawString): unknown {
  if (node === null || typeof node !== 'object') return node;
  const copy = (Array.isArray(node) ? [...node] : { ...node }) as Record<string, unknown>;
  const key = parts[i]!;
  const v = copy[key];
  if (i < parts.length - 1) copy[key] = copyWith(v, parts, i + 1, r);
  else if (v === r.text) {
    const marker = new Binary(r.bytes, 0);
    MARKERS.add(marker);
    copy[key] = marker;
  }
  return copy;
}

/** `doc` with a marker in place of each of its invalid UTF-8 strings (a copy; `doc` unchanged). */
export function withRawStrings(doc: Document): Document {
  const raw = RAW.get(doc);
  if (!raw) return doc;
  let out: Document = doc;
  for (const [path, r] of raw) out = copyWith(out, path.split('.'), 0, r) as Document;
  return out;
}

/** A marker sent as a string element of exactly `bytes` (a server message that is not valid UTF-8). */
export function rawStringMarker(bytes: Uint8Array): Binary {
  seen = true;
  const marker = new Binary(bytes, 0);
  MARKERS.add(marker);
  return marker;
}

function restore(b: Uint8Array, start: number, node: unknown): void {
  const end = start + i32(b, start) - 1;
  let p = start + 4;
  while (p < end) {
    const typeAt = p;
    const type = b[p++]!;
    const keyEnd = b.indexOf(0, p);
    const key = Buffer.from(b.buffer, b.byteOffset + p, keyEnd - p).toString();
    p = keyEnd + 1;
    const size = valueSize(b, type, p);
    const v = (node as Record<string, unknown>)[key];
    if (type === 0x05 && MARKERS.has(v as Binary)) {
      // binary: int32 n, subtype, n bytes → string: int32 n + 1, n bytes, 0 (the same size)
      const bytes = (v as Binary).buffer.subarray(0, (v as Binary).position);
      b[typeAt] = 0x02;
      Buffer.from(b.buffer, b.byteOffset, b.length).writeInt32LE(bytes.length + 1, p);
      b.set(bytes, p + 4);
      b[p + 4 + bytes.length] = 0;
    } else if ((type === 0x03 || type === 0x04) && v !== null && typeof v === 'object')
      if (!('_bsontype' in v)) restore(b, p, v);
    p += size;
  }
}

/**
 * Turns the markers `withRawStrings` put in `value` back into the original string bytes, in the
 * BSON `bytes` that `value` was serialised to. Nothing to do before any such string arrived.
 */
export function restoreRawStrings(bytes: Uint8Array, value: Document): void {
  if (seen) restore(bytes, 0, value);
}
