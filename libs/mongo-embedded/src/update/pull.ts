import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { compileQuery } from '../storage/mingo.js';
import { encodeKey } from '../storage/values.js';

type Matcher = (element: unknown) => boolean;

// Logical operators make a `$pull` condition a query on the elements (documents); every other
// leading operator ($gt, $in, $regex, $elemMatch, ...) applies to the element's value itself.
const QUERY_LEVEL = new Set(['$and', '$or', '$nor', '$expr', '$where', '$comment']);

export const isPlainObject = (v: unknown): v is Document =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/**
 * MongoDB's three `$pull` matchers (pull_node.cpp): an object whose first field is not a value
 * operator is a query that only document elements can match (`{a: 1}`, `{$or: [...]}`); an
 * operator object or a regex is matched against each element as a value; anything else removes
 * the elements equal to it.
 */
export function pullMatcher(cond: unknown): Matcher {
  if (isPlainObject(cond)) {
    const first = Object.keys(cond)[0];
    if (first !== undefined && first.startsWith('$') && !QUERY_LEVEL.has(first)) {
      const q = compileQuery({ v: cond });
      return (el) => q.test({ v: el });
    }
    const q = compileQuery(cond);
    return (el) => isPlainObject(el) && q.test(el);
  }
  if (cond instanceof RegExp) {
    const q = compileQuery({ v: cond });
    return (el) => q.test({ v: el });
  }
  const key = encodeKey(cond);
  return (el) => encodeKey(el) === key;
}

/** The array at `path` plus a setter, or undefined when the path does not lead to a value. */
function locate(
  doc: Document,
  path: string,
): { value: unknown; set: (v: unknown[]) => void } | undefined {
  const parts = path.split('.');
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) cur = step(cur, parts[i]!);
  if (cur === undefined || cur === null || typeof cur !== 'object') return undefined;
  const last = parts[parts.length - 1]!;
  if (Array.isArray(cur) && !/^\d+$/.test(last)) return undefined;
  const container = cur as Record<string, unknown>;
  const value = container[last];
  return value === undefined ? undefined : { value, set: (v) => (container[last] = v) };
}

function step(cur: unknown, part: string): unknown {
  if (cur === undefined || cur === null || typeof cur !== 'object') return undefined;
  if (Array.isArray(cur)) return /^\d+$/.test(part) ? cur[Number(part)] : undefined;
  return (cur as Record<string, unknown>)[part];
}

/**
 * `$pull` / `$pullAll` applied in place to `doc`. A path that does not exist is a no-op (so an
 * upsert seeds the document and carries on); a path holding something other than an array is
 * MongoDB's BadValue. Returns whether anything was removed.
 */
export function applyPull(doc: Document, op: '$pull' | '$pullAll', args: Document): boolean {
  let modified = false;
  for (const [path, cond] of Object.entries(args)) {
    let matches: Matcher;
    if (op === '$pullAll') {
      if (!Array.isArray(cond))
        throw new CommandError(
          2,
          'BadValue',
          `$pullAll requires an array argument but was given a ${typeof cond}`,
        );
      const keys = new Set(cond.map(encodeKey));
      matches = (el) => keys.has(encodeKey(el));
    } else matches = pullMatcher(cond);
    const target = locate(doc, path);
    if (!target) continue;
    if (!Array.isArray(target.value))
      throw new CommandError(2, 'BadValue', `Cannot apply ${op} to a non-array value`);
    const kept = target.value.filter((el) => !matches(el));
    if (kept.length !== target.value.length) {
      target.set(kept);
      modified = true;
    }
  }
  return modified;
}
