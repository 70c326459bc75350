import { badValue } from '../errors.js';

/** MongoDB's `$type` codes and the alias of each. */
const CODES: Record<string, string> = {
  1: 'double',
  2: 'string',
  3: 'object',
  4: 'array',
  5: 'binData',
  6: 'undefined',
  7: 'objectId',
  8: 'bool',
  9: 'date',
  10: 'null',
  11: 'regex',
  12: 'dbPointer',
  13: 'javascript',
  14: 'symbol',
  15: 'javascriptWithScope',
  16: 'int',
  17: 'timestamp',
  18: 'long',
  19: 'decimal',
  '-1': 'minKey',
  127: 'maxKey',
};
const ALIASES = new Set([...Object.values(CODES), 'number']);

/** The alias a `$type` argument (alias or code) stands for; MongoDB's BadValue otherwise. */
export function typeAlias(w: unknown): string {
  if (typeof w === 'string') {
    if (ALIASES.has(w)) return w;
    throw badValue(`Unknown type name alias: ${w}`);
  }
  if (typeof w === 'number' && Number.isInteger(w) && CODES[String(w)]) return CODES[String(w)]!;
  if (typeof w === 'number') throw badValue(`Invalid numerical type code: ${w}`);
  throw badValue('type must be represented as a number or a string');
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The BSON type alias of a decoded value. A plain number is an int32 or a double as the encoder
 * would send it; callers that know a stored number's recorded type ask `numericTypeAt` first.
 */
export function bsonTypeOf(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX ? 'int' : 'double';
    case 'bigint':
      return 'long';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      break;
  }
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (v instanceof RegExp) return 'regex';
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) return 'object';
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return 'objectId';
    case 'Binary':
      return 'binData';
    case 'Long':
      return 'long';
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Decimal128':
      return 'decimal';
    case 'Timestamp':
      return 'timestamp';
    case 'BSONRegExp':
      return 'regex';
    case 'BSONSymbol':
      return 'symbol';
    case 'Code':
      return (v as { scope?: unknown }).scope ? 'javascriptWithScope' : 'javascript';
    case 'MinKey':
      return 'minKey';
    case 'MaxKey':
      return 'maxKey';
    // A DBRef is an embedded document `{$ref, $id}` that the decoder presents as a class.
    case 'DBRef':
      return 'object';
    default:
      return 'object';
  }
}

export const NUMERIC_TYPES = new Set(['int', 'long', 'double', 'decimal']);
