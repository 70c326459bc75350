import { deserialize, type Document } from 'bson';
import {
  HEADER_SIZE,
  MSG_CHECKSUM_PRESENT,
  MSG_MORE_TO_COME,
  OP_MSG,
  OP_QUERY,
} from './constants.js';

export class ProtocolError extends Error {}

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

/** Deserialises one BSON document that must fit exactly inside [start, end). */
function readDocument(buf: Buffer, start: number, end: number): { doc: Document; next: number } {
  if (start + 5 > end) throw new ProtocolError('truncated BSON document');
  const size = buf.readInt32LE(start);
  if (size < 5 || start + size > end)
    throw new ProtocolError('BSON document length exceeds message bounds');
  try {
    const doc = deserialize(buf.subarray(start, start + size), { validation: { utf8: true } });
    return { doc, next: start + size };
  } catch (err) {
    throw new ProtocolError(`invalid BSON: ${(err as Error).message}`);
  }
}

function readCString(buf: Buffer, start: number, end: number): { value: string; next: number } {
  const zero = buf.indexOf(0, start);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated cstring');
  return { value: buf.toString('utf8', start, zero), next: zero + 1 };
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
  while (pos < end) {
    const kind = buf[pos++];
    if (kind === 0) {
      if (body) throw new ProtocolError('OP_MSG has more than one body section');
      const r = readDocument(buf, pos, end);
      body = r.doc;
      pos = r.next;
    } else if (kind === 1) {
      if (pos + 4 > end) throw new ProtocolError('truncated document sequence');
      const size = buf.readInt32LE(pos);
      const seqEnd = pos + size;
      if (size < 5 || seqEnd > end)
        throw new ProtocolError('document sequence exceeds message bounds');
      const id = readCString(buf, pos + 4, seqEnd);
      const docs: Document[] = [];
      let p = id.next;
      while (p < seqEnd) {
        const r = readDocument(buf, p, seqEnd);
        docs.push(r.doc);
        p = r.next;
      }
      sequences[id.value] = docs;
      pos = seqEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without body section');
  return {
    kind: 'msg',
    header,
    command: { ...body, ...sequences },
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
