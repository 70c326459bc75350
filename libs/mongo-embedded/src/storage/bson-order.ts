import type { Binary, Long } from 'bson';
import { compareWithDecimal, isDecimal } from '../numeric/decimal.js';

/**
 * MongoDB's cross-type comparison order (the BSON "canonical type" order used by indexes and
 * sorts): MinKey < null/missing < numbers < strings < objects < arrays < BinData < ObjectId <
 * booleans < dates < timestamps < regular expressions < MaxKey. Missing and null compare equal,
 * as in an index key. Strings compare by UTF-16 code unit (binary for all but astral characters).
 */
const RANK_MIN = 1;
const RANK_NULL = 5;
const RANK_NUMBER = 10;
const RANK_STRING = 15;
const RANK_OBJECT = 20;
const RANK_ARRAY = 25;
const RANK_BINARY = 30;
const RANK_OBJECTID = 35;
const RANK_BOOL = 40;
const RANK_DATE = 45;
const RANK_TIMESTAMP = 47;
const RANK_REGEX = 50;
const RANK_MAX = 127;

type Tagged = { _bsontype?: string };

/** Index bound sentinel: before (`edge` -1) or after (+1) every value of one type rank. */
export class TypeEdge {
  constructor(
    readonly rank: number,
    readonly edge: -1 | 1,
  ) {}
}

export const MIN_VALUE = new TypeEdge(0, -1);
export const MAX_VALUE = new TypeEdge(1000, 1);

export function typeRank(v: unknown): number {
  if (v === null || v === undefined) return RANK_NULL;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return RANK_NUMBER;
    case 'string':
      return RANK_STRING;
    case 'boolean':
      return RANK_BOOL;
    default:
      break;
  }
  if (v instanceof Date) return RANK_DATE;
  if (Array.isArray(v)) return RANK_ARRAY;
  if (v instanceof RegExp) return RANK_REGEX;
  switch ((v as Tagged)._bsontype) {
    case undefined:
      return RANK_OBJECT;
    case 'ObjectId':
      return RANK_OBJECTID;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return RANK_NUMBER;
    case 'Binary':
      return RANK_BINARY;
    case 'Timestamp':
      return RANK_TIMESTAMP;
    case 'BSONRegExp':
      return RANK_REGEX;
    case 'BSONSymbol':
      return RANK_STRING;
    case 'MinKey':
      return RANK_MIN;
    case 'MaxKey':
      return RANK_MAX;
    default:
      return RANK_OBJECT;
  }
}

const asNumber = (v: unknown): number =>
  typeof v === 'number' ? v : Number((v as { valueOf(): unknown }).toString());

const isLong = (v: unknown): v is Long => (v as Tagged | null)?._bsontype === 'Long';
const TWO_63 = 2 ** 63;

/**
 * An int64 against a double, exactly (as MongoDB compares them): an int64 beyond 2^53 has no exact
 * double, so converting it would make neighbours equal and misorder it against plain numbers.
 */
function compareLongDouble(l: Long, d: number): number {
  if (Number.isNaN(d)) return 1;
  if (d >= TWO_63) return -1;
  if (d < -TWO_63) return 1;
  const floor = Math.floor(d);
  const li = l.toBigInt();
  const fi = BigInt(floor);
  if (li !== fi) return li < fi ? -1 : 1;
  return d > floor ? -1 : 0;
}

/** Two numbers of any BSON numeric type; exact when an int64 or a Decimal128 is involved. */
export function compareNumeric(a: unknown, b: unknown): number {
  if (isDecimal(a) || isDecimal(b)) return compareWithDecimal(a, b);
  if (isLong(a)) return isLong(b) ? a.compare(b) : compareLongDouble(a, asNumber(b));
  if (isLong(b)) return -compareLongDouble(b, asNumber(a));
  return compareNumbers(asNumber(a), asNumber(b));
}

function compareNumbers(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) return 0;
  // NaN sorts before every other number and equals itself.
  return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Total order of two BSON values (or bound sentinels) in MongoDB's comparison order. */
export function compareBson(a: unknown, b: unknown): number {
  // Fast paths for the key types the services index.
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'number' && typeof b === 'number') return compareNumbers(a, b);
  if (a instanceof Date && b instanceof Date) return compareNumbers(a.getTime(), b.getTime());
  if (a instanceof TypeEdge || b instanceof TypeEdge) return compareEdge(a, b);
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case RANK_NULL:
    case RANK_MIN:
    case RANK_MAX:
      return 0;
    case RANK_NUMBER:
      return compareNumeric(a, b);
    case RANK_STRING:
      return compareStrings(String(a), String(b));
    case RANK_BOOL:
      return a === b ? 0 : a ? 1 : -1;
    case RANK_DATE:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    case RANK_OBJECTID:
      return compareBytes(idBytes(a), idBytes(b));
    case RANK_ARRAY:
      return compareArrays(a as unknown[], b as unknown[]);
    case RANK_OBJECT:
      return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
    case RANK_BINARY:
      return compareBinaries(a as Binary, b as Binary);
    case RANK_TIMESTAMP:
      return compareStrings(
        String((a as { toString(): string }).toString()).padStart(20, '0'),
        String((b as { toString(): string }).toString()).padStart(20, '0'),
      );
    default:
      return compareStrings(String(a), String(b));
  }
}

/** The 12 bytes of an ObjectId (its `id`/`buffer`), without building the hex string. */
const idBytes = (v: unknown): Uint8Array => (v as { id: Uint8Array }).id;

function compareBytes(x: Uint8Array, y: Uint8Array): number {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

function compareEdge(a: unknown, b: unknown): number {
  const [ea, eb] = [a, b].map((v) =>
    v instanceof TypeEdge ? v.rank * 4 + v.edge : typeRank(v) * 4,
  ) as [number, number];
  return ea < eb ? -1 : ea > eb ? 1 : 0;
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareBson(a[i], b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Embedded documents: field by field, each by the value's type, then the name, then the value. */
function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i]!];
    const vb = b[kb[i]!];
    const rt = typeRank(va) - typeRank(vb);
    if (rt !== 0) return rt < 0 ? -1 : 1;
    const rn = compareStrings(ka[i]!, kb[i]!);
    if (rn !== 0) return rn;
    const rv = compareBson(va, vb);
    if (rv !== 0) return rv;
  }
  return ka.length - kb.length;
}

function compareBinaries(a: Binary, b: Binary): number {
  if (a.length() !== b.length()) return a.length() < b.length() ? -1 : 1;
  if (a.sub_type !== b.sub_type) return a.sub_type < b.sub_type ? -1 : 1;
  return compareBytes(a.buffer.subarray(0, a.length()), b.buffer.subarray(0, b.length()));
}

/**
 * Values an index bound can be built from: equality on them is plain BSON equality (no array,
 * embedded-document, null or regex semantics) and their type bracket is known.
 */
export function isBoundValue(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  const t = typeof v;
  if (t === 'string' || t === 'boolean') return true;
  if (t === 'number') return !Number.isNaN(v);
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  const tag = (v as Tagged)._bsontype;
  return tag === 'ObjectId' || tag === 'Int32' || tag === 'Double' || tag === 'Long';
}

/** The sentinels that enclose every value of `v`'s type (a range predicate's type bracket). */
export function bracketOf(v: unknown): { low: TypeEdge; high: TypeEdge } {
  const rank = typeRank(v);
  return { low: new TypeEdge(rank, -1), high: new TypeEdge(rank, 1) };
}
