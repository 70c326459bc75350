import type { Document } from 'bson';

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

  toDocument(): Document {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
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
    const shown = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join(', ');
    super(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { ${shown} }`,
      {
        keyPattern,
        keyValue,
      },
    );
  }
}

function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
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
