import { serialize, type Document } from 'bson';
import { restoreRawStrings } from '../storage/raw-strings.js';
import { HEADER_SIZE, OP_MSG, OP_REPLY } from './constants.js';

let nextRequestId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.allocUnsafe(HEADER_SIZE);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(nextRequestId++ & 0x7fffffff, 4);
  h.writeInt32LE(responseTo, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

export function encodeOpMsg(responseTo: number, doc: Document): Buffer {
  return opMsgOf(responseTo, encodeBody(doc));
}

/** The reply document's BSON, with the raw bytes of invalid UTF-8 strings put back. */
export function encodeBody(doc: Document): Uint8Array {
  const body = serialize(doc);
  restoreRawStrings(body, doc);
  return body;
}

/** An OP_MSG around a reply body that is already encoded. */
export function opMsgOf(responseTo: number, body: Uint8Array): Buffer {
  const flagsAndKind = Buffer.alloc(5); // flags 0, section kind 0
  return Buffer.concat([
    header(HEADER_SIZE + 5 + body.length, responseTo, OP_MSG),
    flagsAndKind,
    body,
  ]);
}

/** OP_REPLY is only used to answer the legacy OP_QUERY handshake. */
export function encodeOpReply(responseTo: number, doc: Document): Buffer {
  return opReplyOf(responseTo, encodeBody(doc));
}

export function opReplyOf(responseTo: number, body: Uint8Array): Buffer {
  const fixed = Buffer.alloc(20); // responseFlags, cursorId(int64), startingFrom, numberReturned
  fixed.writeInt32LE(1, 16);
  return Buffer.concat([header(HEADER_SIZE + 20 + body.length, responseTo, OP_REPLY), fixed, body]);
}
