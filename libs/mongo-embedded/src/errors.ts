import { isUtf8 } from 'node:buffer';
import type { Binary, Document } from 'bson';
import { rawStringMarker } from './storage/raw-strings.js';

/** A failure that is reported to the client as a MongoDB error document rather than dropping the connection. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
  }

  /**
   * The message's bytes when they are not valid UTF-8 (MongoDB cuts long key values in a
   * duplicate-key message at a byte count, possibly inside a character); `message` holds them
   * decoded, with U+FFFD.
   */
  rawMessage?: Uint8Array;

  /** `errmsg` as sent: the message, or a marker that is sent as its exact bytes. */
  get errmsg(): string | Binary {
    return this.rawMessage ? rawStringMarker(this.rawMessage) : this.message;
  }

  toDocument(): Document {
    return { ok: 0, errmsg: this.errmsg, code: this.code, codeName: this.codeName, ...this.extra };
  }
}

export const badValue = (msg: string) => new CommandError(2, 'BadValue', msg);
export const invalidNamespace = (msg: string) => new CommandError(73, 'InvalidNamespace', msg);
export const namespaceNotFound = (msg = 'ns not found') =>
  new CommandError(26, 'NamespaceNotFound', msg);
export const namespaceExists = (ns: string) =>
  new CommandError(48, 'NamespaceExists', `Collection ${ns} already exists.`);
export const commandNotFound = (name: string) =>
  new CommandError(59, 'CommandNotFound', `no such command: '${name}'`);
export const cursorNotFound = (id: number) =>
  new CommandError(43, 'CursorNotFound', `cursor id ${id} not found`);
/**
 * A failure while the executor produces a command's documents; mongod names the command it was
 * running. A find's documents are projected batch by batch, so a find's failure can surface in a
 * getMore (`during`).
 */
export class ExecutorError extends CommandError {
  constructor(
    code: number,
    codeName: string,
    readonly reason: string,
    command = 'find command',
  ) {
    super(code, codeName, `Executor error during ${command} :: caused by :: ${reason}`);
  }

  during(command: string): ExecutorError {
    return new ExecutorError(this.code, this.codeName, this.reason, command);
  }
}

/** As mongod's cursor manager: a getMore while another operation holds the cursor. */
export const cursorInUse = (id: number) =>
  new CommandError(143, 'CursorInUse', `cursor id ${id} is already in use`);
export const immutableField = (field: string) =>
  new CommandError(
    66,
    'ImmutableField',
    `Performing an update on the path '${field}' would modify the immutable field '${field}'`,
  );
export const illegalOperation = (msg: string) => new CommandError(20, 'IllegalOperation', msg);
export const failedToParse = (msg: string) => new CommandError(9, 'FailedToParse', msg);
export const indexNotFound = (msg: string) => new CommandError(27, 'IndexNotFound', msg);

/** Duplicate key violation, shaped so the driver/mongoose surface `code`, `keyPattern` and `keyValue` as MongoDB does. */
export class DuplicateKeyError extends CommandError {
  constructor(ns: string, indexName: string, keyPattern: Document, keyValue: Document) {
    const parts = Object.entries(keyValue).map(([k, v]) => {
      const shown = formatValue(v);
      return Buffer.concat([
        Buffer.from(`${k}: `),
        Buffer.isBuffer(shown) ? shown : Buffer.from(shown),
      ]);
    });
    const bytes = Buffer.concat([
      Buffer.from(`E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { `),
      ...parts.flatMap((p, i) => (i ? [Buffer.from(', '), p] : [p])),
      Buffer.from(' }'),
    ]);
    super(11000, 'DuplicateKey', bytes.toString('utf8'), { keyPattern, keyValue });
    if (!isUtf8(bytes)) this.rawMessage = bytes;
  }
}

// MongoDB prints a string of 160 bytes or more as its first 150 bytes and `..."`
// (BSONElement::toString), which may end inside a multibyte character.
const LONG_STRING = 160;
const SHOWN_BYTES = 150;

function formatValue(v: unknown): string | Buffer {
  if (typeof v === 'string') {
    const b = Buffer.from(v);
    if (b.length < LONG_STRING) return JSON.stringify(v);
    return Buffer.concat([Buffer.from('"'), b.subarray(0, SHOWN_BYTES), Buffer.from('..."')]);
  }
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (v === undefined || v === null) return 'null';
  if (
    typeof v === 'object' &&
    v !== null &&
    '_bsontype' in v &&
    (v as { _bsontype: string })._bsontype === 'ObjectId'
  ) {
    return `ObjectId('${String(v)}')`;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function toCommandError(err: unknown): CommandError {
  if (err instanceof CommandError) return err;
  const message = err instanceof Error ? err.message : String(err);
  // mingo reports unsupported/invalid expressions as plain errors; MongoDB calls these BadValue-ish failures.
  return new CommandError(2, 'BadValue', message);
}
