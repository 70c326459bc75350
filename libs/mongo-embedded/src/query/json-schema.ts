import type { Document } from 'bson';
import { failedToParse } from '../errors.js';
import { notImplemented } from '../commands/refusals.js';
import { numericTypeAt } from '../numeric/types.js';
import { encodeKey } from '../storage/values.js';
import { bsonTypeOf, NUMERIC_TYPES, typeAlias } from './bson-types.js';

/** A compiled schema: `value` found at `path` (dotted, '' for the document) of the stored `root`. */
export type Check = (value: unknown, root: Document, path: string) => boolean;

const isPlain = (v: unknown): v is Document =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const isObject = (v: unknown): v is Document => bsonTypeOf(v) === 'object';
const isNumber = (v: unknown): boolean => NUMERIC_TYPES.has(bsonTypeOf(v));
const child = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

// MongoDB's JSON Schema types (draft 4's, without `integer`) and the BSON types each one covers.
const JSON_TYPES: Record<string, (t: string) => boolean> = {
  object: (t) => t === 'object',
  array: (t) => t === 'array',
  number: (t) => NUMERIC_TYPES.has(t),
  boolean: (t) => t === 'bool',
  string: (t) => t === 'string',
  null: (t) => t === 'null',
};
const UNSUPPORTED = new Set(['$ref', '$schema', 'default', 'definitions', 'format', 'id']);

export const typeOf = (v: unknown, root: Document, path: string): string =>
  typeof v === 'number' ? numericTypeAt(root, path, v) : bsonTypeOf(v);

function list(arg: unknown, keyword: string): unknown[] {
  const items = Array.isArray(arg) ? arg : [arg];
  if (items.length === 0) throw failedToParse(`$jsonSchema keyword '${keyword}' must not be empty`);
  return items;
}
function nonNegative(arg: unknown, keyword: string): number {
  if (typeof arg !== 'number' || !Number.isInteger(arg) || arg < 0)
    throw failedToParse(`$jsonSchema keyword '${keyword}' must be a non-negative integer`);
  return arg;
}
function numberArg(arg: unknown, keyword: string): number {
  if (typeof arg !== 'number' || Number.isNaN(arg))
    throw failedToParse(`$jsonSchema keyword '${keyword}' must be a number`);
  return arg;
}
function schemas(arg: unknown, keyword: string): Check[] {
  if (!Array.isArray(arg) || arg.length === 0)
    throw failedToParse(`$jsonSchema keyword '${keyword}' must be a non-empty array of schemas`);
  return arg.map((s) => compile(s));
}

/**
 * MongoDB's `$jsonSchema` dialect (draft 4 plus `bsonType`; no `$ref`, `format`, `default`,
 * `definitions`, `integer`): each keyword applies only to values of its kind (`minimum` to
 * numbers, `required` to objects, ...), as in JSON Schema. Numbers are typed by the stored
 * document's recorded types, so `bsonType: 'long'` tells an int64 from an int32.
 */
export function compile(schema: unknown): Check {
  if (!isPlain(schema)) throw failedToParse('$jsonSchema must be an object');
  const checks: Check[] = [];
  const s = schema;
  for (const [keyword, arg] of Object.entries(s)) {
    if (UNSUPPORTED.has(keyword))
      throw failedToParse(`$jsonSchema keyword '${keyword}' is not currently supported`);
    switch (keyword) {
      case 'title':
      case 'description':
        if (typeof arg !== 'string')
          throw failedToParse(`$jsonSchema keyword '${keyword}' must be a string`);
        break;
      case 'encrypt':
      case 'encryptMetadata':
        throw notImplemented(`The $jsonSchema keyword '${keyword}' (client-side encryption)`);
      case 'type': {
        const types = list(arg, keyword).map((t) => {
          const match = typeof t === 'string' ? JSON_TYPES[t] : undefined;
          if (!match)
            throw failedToParse(`$jsonSchema type '${String(t)}' is not currently supported.`);
          return match;
        });
        checks.push((v, root, path) => types.some((m) => m(typeOf(v, root, path))));
        break;
      }
      case 'bsonType': {
        const aliases = list(arg, keyword).map((t) => typeAlias(t));
        checks.push((v, root, path) => {
          const t = typeOf(v, root, path);
          return aliases.some((a) => a === t || (a === 'number' && NUMERIC_TYPES.has(t)));
        });
        break;
      }
      case 'enum': {
        if (!Array.isArray(arg) || arg.length === 0)
          throw failedToParse("$jsonSchema keyword 'enum' must be a non-empty array");
        const keys = new Set(arg.map((e) => encodeKey(e)));
        checks.push((v) => keys.has(encodeKey(v)));
        break;
      }
      case 'minimum':
      case 'maximum': {
        const bound = numberArg(arg, keyword);
        const exclusive =
          s[keyword === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] === true;
        const sign = keyword === 'minimum' ? 1 : -1;
        checks.push((v) => {
          if (!isNumber(v)) return true;
          const d = (Number(v) - bound) * sign;
          return exclusive ? d > 0 : d >= 0;
        });
        break;
      }
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        if (typeof arg !== 'boolean')
          throw failedToParse(`$jsonSchema keyword '${keyword}' must be a boolean`);
        if (s[keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum'] === undefined)
          throw failedToParse(`$jsonSchema keyword '${keyword}' requires its bound`);
        break;
      case 'multipleOf': {
        const m = numberArg(arg, keyword);
        if (m <= 0) throw failedToParse("$jsonSchema keyword 'multipleOf' must be positive");
        checks.push((v) => !isNumber(v) || Number(v) % m === 0);
        break;
      }
      case 'minLength':
      case 'maxLength': {
        const n = nonNegative(arg, keyword);
        const min = keyword === 'minLength';
        checks.push((v) => {
          if (typeof v !== 'string') return true;
          const len = [...v].length; // code points, as MongoDB counts
          return min ? len >= n : len <= n;
        });
        break;
      }
      case 'pattern': {
        if (typeof arg !== 'string')
          throw failedToParse("$jsonSchema keyword 'pattern' must be a string");
        const re = new RegExp(arg, 'u');
        checks.push((v) => typeof v !== 'string' || re.test(v));
        break;
      }
      case 'minItems':
      case 'maxItems': {
        const n = nonNegative(arg, keyword);
        const min = keyword === 'minItems';
        checks.push((v) => !Array.isArray(v) || (min ? v.length >= n : v.length <= n));
        break;
      }
      case 'uniqueItems':
        if (typeof arg !== 'boolean')
          throw failedToParse("$jsonSchema keyword 'uniqueItems' must be a boolean");
        if (arg)
          checks.push(
            (v) => !Array.isArray(v) || new Set(v.map((e) => encodeKey(e))).size === v.length,
          );
        break;
      case 'items': {
        if (Array.isArray(arg)) {
          const each = arg.map((sub) => compile(sub));
          const rest = additionalItems(s.additionalItems);
          checks.push(
            (v, root, path) =>
              !Array.isArray(v) ||
              v.every((e, i) => (i < each.length ? each[i]! : rest)(e, root, child(path, i))),
          );
        } else {
          const each = compile(arg);
          checks.push(
            (v, root, path) =>
              !Array.isArray(v) || v.every((e, i) => each(e, root, child(path, i))),
          );
        }
        break;
      }
      case 'additionalItems':
        additionalItems(arg); // applies with an `items` array only (checked there)
        break;
      case 'required': {
        if (!Array.isArray(arg) || arg.length === 0 || arg.some((k) => typeof k !== 'string'))
          throw failedToParse(
            "$jsonSchema keyword 'required' must be a non-empty array of strings",
          );
        const names = arg as string[];
        checks.push((v) => !isObject(v) || names.every((k) => Object.hasOwn(v, k)));
        break;
      }
      case 'minProperties':
      case 'maxProperties': {
        const n = nonNegative(arg, keyword);
        const min = keyword === 'minProperties';
        checks.push((v) => {
          if (!isObject(v)) return true;
          const count = Object.keys(v).length;
          return min ? count >= n : count <= n;
        });
        break;
      }
      case 'properties':
      case 'patternProperties':
      case 'additionalProperties':
        break; // together, below
      case 'dependencies': {
        if (!isPlain(arg))
          throw failedToParse("$jsonSchema keyword 'dependencies' must be an object");
        const deps = Object.entries(arg).map(([k, dep]): [string, Check] => {
          if (Array.isArray(dep))
            return [k, (v) => dep.every((d) => Object.hasOwn(v as Document, d as string))];
          return [k, compile(dep)];
        });
        checks.push(
          (v, root, path) =>
            !isObject(v) || deps.every(([k, dep]) => !Object.hasOwn(v, k) || dep(v, root, path)),
        );
        break;
      }
      case 'allOf': {
        const all = schemas(arg, keyword);
        checks.push((v, root, path) => all.every((c) => c(v, root, path)));
        break;
      }
      case 'anyOf': {
        const any = schemas(arg, keyword);
        checks.push((v, root, path) => any.some((c) => c(v, root, path)));
        break;
      }
      case 'oneOf': {
        const one = schemas(arg, keyword);
        checks.push((v, root, path) => one.filter((c) => c(v, root, path)).length === 1);
        break;
      }
      case 'not': {
        const inner = compile(arg);
        checks.push((v, root, path) => !inner(v, root, path));
        break;
      }
      default:
        throw failedToParse(`Unknown $jsonSchema keyword: ${keyword}`);
    }
  }
  const objectCheck = propertiesCheck(s);
  if (objectCheck) checks.push(objectCheck);
  return (v, root, path) => checks.every((c) => c(v, root, path));
}

function additionalItems(arg: unknown): Check {
  if (arg === undefined || arg === true) return () => true;
  if (arg === false) return () => false;
  return compile(arg);
}

/** `properties`, `patternProperties` and `additionalProperties`, which depend on each other. */
function propertiesCheck(s: Document): Check | undefined {
  const { properties, patternProperties, additionalProperties } = s;
  if (
    properties === undefined &&
    patternProperties === undefined &&
    additionalProperties === undefined
  )
    return undefined;
  if (properties !== undefined && !isPlain(properties))
    throw failedToParse("$jsonSchema keyword 'properties' must be an object");
  if (patternProperties !== undefined && !isPlain(patternProperties))
    throw failedToParse("$jsonSchema keyword 'patternProperties' must be an object");
  const named = new Map(Object.entries(properties ?? {}).map(([k, sub]) => [k, compile(sub)]));
  const patterns = Object.entries(patternProperties ?? {}).map(
    ([re, sub]) => [new RegExp(re, 'u'), compile(sub)] as const,
  );
  const rest =
    additionalProperties === undefined || additionalProperties === true
      ? undefined
      : additionalProperties === false
        ? () => false
        : compile(additionalProperties);
  return (v, root, path) => {
    if (!isObject(v)) return true;
    for (const key of Object.keys(v)) {
      const value = v[key] as unknown;
      const at = child(path, key);
      let matched = false;
      const sub = named.get(key);
      if (sub) {
        matched = true;
        if (!sub(value, root, at)) return false;
      }
      for (const [re, check] of patterns)
        if (re.test(key)) {
          matched = true;
          if (!check(value, root, at)) return false;
        }
      if (!matched && rest && !rest(value, root, at)) return false;
    }
    return true;
  };
}

/** mingo's `jsonSchemaValidator` option: a compiled schema tested against a whole document. */
export function jsonSchemaValidator(schema: Record<string, unknown>): (doc: Document) => boolean {
  const check = compile(schema);
  return (doc) => check(doc, doc, '');
}
