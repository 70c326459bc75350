import { deserialize, type Document } from 'bson';
import { attachNumericArgs, NUMERIC_ARGS } from '../numeric/types.js';
import { attachRawArgs, shareRawArgs } from '../storage/raw-strings.js';
import {
  HEADER_SIZE,
  MSG_CHECKSUM_PRESENT,
  MSG_MORE_TO_COME,
  OP_MSG,
  OP_QUERY,
} from './constants.js';

export class ProtocolError extends Error {}

/**
 * On an `insert` command: the exact BSON bytes of each entry of `documents` (same order), so the
 * journal can store them as received instead of serialising the decoded documents again. A symbol
 * key, so it never shows up in the command's fields. The bytes are views into the message buffer:
 * use them only while the command runs.
 */
export const RAW_DOCUMENTS: unique symbol = Symbol('rawDocuments');

// MongoDB stores strings that are not valid UTF-8 as they came (only a client may validate them).
const DESERIALIZE_OPTIONS = { validation: { utf8: false } } as const;
const INSERT_BODY_OPTIONS = { ...DESERIALIZE_OPTIONS, fieldsAsRaw: { documents: true } };

export interface MessageHeader {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export type ParsedMessage =
  | { kind: 'msg'; header: MessageHeader; command: Document; moreToCome: boolean }
  | { kind: 'query'; header: MessageHeader; collection: string; command: Document };

export function readHeader(buf: Buffer): MessageHeader {
  if (buf.length < HEADER_SIZE) throw new ProtocolError('truncated message header');
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

/** The bytes of one BSON document that must fit exactly inside [start, end). */
function readBytes(buf: Buffer, start: number, end: number): { raw: Buffer; next: number } {
  if (start + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buf.readInt32LE(start);
  if (size < 5 || start + size > end)
    throw new ProtocolError('BSON document length exceeds message bounds');
  return { raw: buf.subarray(start, start + size), next: start + size };
}

/** Deserialises one BSON document that must fit exactly inside [start, end). */
function readDocument(buf: Buffer, start: number, end: number): { doc: Document; next: number } {
  const { raw, next } = readBytes(buf, start, end);
  return { doc: decode(raw), next };
}

function decode(raw: Uint8Array, options: object = DESERIALIZE_OPTIONS): Document {
  try {
    return deserialize(raw, options);
  } catch (err) {
    throw new ProtocolError(`invalid BSON: ${(err as Error).message}`);
  }
}

const UPDATE_NAMES = ['update', 'findAndModify', 'findandmodify'].map((n) =>
  Buffer.from(`${n}\0`, 'latin1'),
);

/** Whether the command (first key, read from the bytes) is `update` or `findAndModify`. */
function carriesUpdateValues(raw: Buffer): boolean {
  for (const name of UPDATE_NAMES)
    if (raw.length > 5 + name.length && raw.compare(name, 0, name.length, 5, 5 + name.length) === 0)
      return true;
  return false;
}

/** Whether a BSON document's first key (the command name) is `insert`, read from the bytes. */
function isInsertCommand(raw: Buffer): boolean {
  // int32 size, element type byte, then the key as a cstring: "insert\0" is 7 bytes.
  return raw.length >= 12 && raw[11] === 0 && raw.toString('latin1', 5, 11) === 'insert';
}

/**
 * An insert body decoded with `documents` left as raw bytes, then each document decoded on its own:
 * the same documents as a plain decode, plus their bytes. Anything unusual in `documents` (not an
 * array, or an entry that is not a document) takes the plain decode, so results never differ.
 */
function readInsertBody(raw: Buffer): Document {
  const body = decode(raw, INSERT_BODY_OPTIONS);
  const entries = body.documents as unknown;
  if (!Array.isArray(entries) || !entries.every((e) => e instanceof Uint8Array)) return decode(raw);
  const bytes = entries as Uint8Array[];
  const docs: Document[] = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) docs[i] = decode(bytes[i]!);
  body.documents = docs;
  withRaw(body, bytes);
  return body;
}

function readCString(buf: Buffer, start: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, start);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated cstring');
  return { value: buf.toString('utf8', start, zero), next: zero + 1 };
}

/** Not enumerable, so spreading or comparing a command never carries or shows the bytes. */
function withRaw(command: Document, bytes: Uint8Array[] | undefined): void {
  if (bytes)
    Object.defineProperty(command, RAW_DOCUMENTS, {
      value: bytes,
      enumerable: false,
      configurable: true,
    });
}

/**
 * Parses an OP_MSG: one kind-0 body plus kind-1 document sequences, which the driver uses for
 * `documents`/`updates`/`deletes`; sequences are folded into the command as array fields.
 */
function parseOpMsg(buf: Buffer, header: MessageHeader): ParsedMessage {
  if (buf.length < HEADER_SIZE + 5) throw new ProtocolError('truncated OP_MSG');
  const flags = buf.readUInt32LE(HEADER_SIZE);
  // Unknown required bits (0-15) must be rejected per the OP_MSG spec.
  if (flags & 0xfffc) throw new ProtocolError(`unsupported OP_MSG flags ${flags}`);
  const end = flags & MSG_CHECKSUM_PRESENT ? buf.length - 4 : buf.length;
  let pos = HEADER_SIZE + 4;
  let body: Document | undefined;
  const sequences: Record<string, Document[]> = {};
  let insert = false;
  let rawSequence: Buffer[] | undefined;
  const numericRaws: [number, Buffer][] = [];
  while (pos < end) {
    const kind = buf[pos++];
    if (kind === 0) {
      if (body) throw new ProtocolError('OP_MSG has more than one body section');
      const r = readBytes(buf, pos, end);
      insert = isInsertCommand(r.raw);
      body = insert ? readInsertBody(r.raw) : decode(r.raw);
      if (carriesUpdateValues(r.raw)) {
        attachNumericArgs(body, r.raw);
        attachRawArgs(body, r.raw);
      }
      pos = r.next;
    } else if (kind === 1) {
      if (pos + 4 > end) throw new ProtocolError('truncated document sequence');
      const size = buf.readInt32LE(pos);
      const seqEnd = pos + size;
      if (size < 5 || seqEnd > end)
        throw new ProtocolError('document sequence exceeds message bounds');
      const id = readCString(buf, pos + 4, seqEnd);
      const docs: Document[] = [];
      const raws: Buffer[] = [];
      let p = id.next;
      while (p < seqEnd) {
        const r = readBytes(buf, p, seqEnd);
        docs.push(decode(r.raw));
        raws.push(r.raw);
        if (id.value === 'updates') numericRaws.push([docs.length - 1, r.raw]);
        p = r.next;
      }
      sequences[id.value] = docs;
      if (id.value === 'documents') rawSequence = raws;
      pos = seqEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without body section');
  const command: Document = { ...body, ...sequences };
  // A `documents` sequence replaces the body's field, and with it any bytes taken from the body.
  const raw = (body as Record<symbol, Uint8Array[] | undefined>)[RAW_DOCUMENTS];
  withRaw(command, sequences.documents ? (insert ? rawSequence : undefined) : raw);
  shareRawArgs(body, command);
  const bodyArgs = (body as Record<symbol, unknown>)[NUMERIC_ARGS];
  if (bodyArgs)
    Object.defineProperty(command, NUMERIC_ARGS, {
      value: bodyArgs,
      enumerable: false,
      configurable: true,
    });
  for (const [i, bytes] of numericRaws) {
    attachNumericArgs(command, bytes, `updates.${i}`);
    attachRawArgs(command, bytes, `updates.${i}`);
  }
  return {
    kind: 'msg',
    header,
    command,
    moreToCome: (flags & MSG_MORE_TO_COME) !== 0,
  };
}

function parseOpQuery(buf: Buffer, header: MessageHeader): ParsedMessage {
  const name = readCString(buf, HEADER_SIZE + 4, buf.length);
  const queryStart = name.next + 8; // numberToSkip + numberToReturn
  let { doc } = readDocument(buf, queryStart, buf.length);
  // Legacy drivers wrap commands as { $query: {...}, $readPreference }.
  if (doc.$query && typeof doc.$query === 'object') doc = doc.$query as Document;
  const dot = name.value.indexOf('.');
  const db = dot < 0 ? name.value : name.value.slice(0, dot);
  return { kind: 'query', header, collection: name.value, command: { ...doc, $db: db } };
}

export function parseMessage(buf: Buffer): ParsedMessage {
  const header = readHeader(buf);
  if (header.length !== buf.length) throw new ProtocolError('message length mismatch');
  if (header.opCode === OP_MSG) return parseOpMsg(buf, header);
  if (header.opCode === OP_QUERY) return parseOpQuery(buf, header);
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}
