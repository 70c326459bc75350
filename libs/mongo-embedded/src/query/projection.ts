import { defineField, ownField } from '../safety/unsafe-keys.js';
import type { Document } from 'bson';
import { CommandError, ExecutorError } from '../errors.js';
import { isPlainObject, pullMatcher } from '../update/pull.js';
import { positionalIndex } from './positional.js';

/** A node of the projected paths: `true` for a whole field, or the projection of its subfields. */
type Tree = Map<string, Tree | true>;

interface Parsed {
  inclusion: boolean;
  idExcluded: boolean;
  tree: Tree;
  slices: [string, number | [number, number]][];
  elemMatches: [string, Document][];
  positional: string[];
}

const projectionError = (code: number, msg: string) =>
  new CommandError(code, `Location${code}`, msg);

function addPath(tree: Tree, path: string): void {
  const parts = path.split('.');
  let node = tree;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === parts.length - 1) {
      node.set(part, true);
      return;
    }
    const next = node.get(part);
    if (next === true) return; // the whole parent is already projected
    if (!next) node.set(part, (node = new Map()));
    else node = next;
  }
}

/** Flattens `{child: {name: 1}}` into `child.name` (the nested form is the same as the dotted one). */
function flatten(spec: Document, prefix = '', out: [string, unknown][] = []): [string, unknown][] {
  for (const [k, v] of Object.entries(spec)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && !Object.keys(v).some((key) => key.startsWith('$')))
      flatten(v, path, out);
    else out.push([path, v]);
  }
  return out;
}

/** Undefined when the projection uses something only the aggregation engine can compute. */
function parse(spec: Document): Parsed | undefined {
  const parsed: Parsed = {
    inclusion: false,
    idExcluded: false,
    tree: new Map(),
    slices: [],
    elemMatches: [],
    positional: [],
  };
  let included: string | undefined;
  let excluded: string | undefined;
  for (const [path, v] of flatten(spec)) {
    if (path.endsWith('.$')) {
      parsed.positional.push(path.slice(0, -2));
      included ??= path;
      continue;
    }
    if (isPlainObject(v)) {
      const ops = Object.keys(v);
      if (ops.length === 1 && ops[0] === '$slice') {
        const s = v.$slice;
        if (typeof s !== 'number' && !(Array.isArray(s) && s.length === 2))
          throw projectionError(
            28724,
            'First argument to $slice must be an array, but is of type: ' + typeof s,
          );
        parsed.slices.push([path, s as number | [number, number]]);
        continue;
      }
      if (ops.length === 1 && ops[0] === '$elemMatch' && isPlainObject(v.$elemMatch)) {
        if (path.includes('.'))
          throw projectionError(31275, 'Cannot use $elemMatch projection on a nested field.');
        parsed.elemMatches.push([path, v.$elemMatch]);
        included ??= path;
        continue;
      }
      return undefined;
    }
    if (typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    if (path === '_id') {
      parsed.idExcluded = !v;
      continue;
    }
    if (v) included ??= path;
    else excluded ??= path;
    if (v) addPath(parsed.tree, path);
  }
  if (included !== undefined && excluded !== undefined)
    throw projectionError(
      31254,
      `Cannot do exclusion on field ${excluded} in inclusion projection`,
    );
  parsed.inclusion =
    included !== undefined || (spec._id !== undefined && !!spec._id && parsed.slices.length === 0);
  if (!parsed.inclusion) {
    for (const [path, v] of flatten(spec))
      if (path !== '_id' && (v === 0 || v === false)) addPath(parsed.tree, path);
  } else {
    for (const [path] of parsed.slices) addPath(parsed.tree, path);
    for (const path of parsed.positional) addPath(parsed.tree, path);
  }
  return parsed;
}

function include(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value))
    return value
      .filter(
        (el) => el !== null && typeof el === 'object' && (Array.isArray(el) || isPlainObject(el)),
      )
      .map((el) => include(el, tree));
  if (!isPlainObject(value)) return undefined;
  const out: Document = {};
  for (const key of Object.keys(value)) {
    const sub = tree.get(key);
    if (!sub) continue;
    if (sub === true) defineField(out, key, value[key]);
    else {
      const projected = include(value[key], sub);
      if (projected !== undefined) defineField(out, key, projected);
    }
  }
  return out;
}

function exclude(value: unknown, tree: Tree): unknown {
  if (Array.isArray(value)) return value.map((el) => exclude(el, tree));
  if (!isPlainObject(value)) return value;
  const out: Document = {};
  for (const key of Object.keys(value)) {
    const sub = tree.get(key);
    if (sub === true) continue;
    defineField(out, key, sub ? exclude(value[key], sub) : value[key]);
  }
  return out;
}

function slice(arr: unknown[], s: number | [number, number]): unknown[] {
  if (typeof s === 'number')
    return s >= 0 ? arr.slice(0, s) : arr.slice(Math.max(0, arr.length + s));
  const [skip, limit] = s;
  const start = skip >= 0 ? skip : Math.max(0, arr.length + skip);
  return arr.slice(start, start + limit);
}

/** Applies `fn` to the value(s) at `path` inside `doc` (which the projection already copied). */
function rewrite(doc: unknown, parts: string[], fn: (v: unknown) => unknown): void {
  if (Array.isArray(doc)) {
    for (const el of doc) rewrite(el, parts, fn);
    return;
  }
  if (!isPlainObject(doc)) return;
  const [head, ...rest] = parts as [string, ...string[]];
  if (!Object.prototype.hasOwnProperty.call(doc, head)) return;
  if (rest.length === 0) defineField(doc, head, fn(doc[head]));
  else rewrite(doc[head], rest, fn);
}

/**
 * A find projection as MongoDB (4.4+) applies it: inclusion keeps the document's field order and
 * never invents a missing subdocument, a projection of only `$slice` keeps every other field, and
 * `$elemMatch` and the positional `$` return the first matching element. Returns undefined for
 * projections with computed expressions, which the caller hands to the aggregation engine.
 */
export function compileProjection(
  spec: Document,
  filter: Document = {},
): ((doc: Document) => Document) | undefined {
  const parsed = parse(spec);
  if (!parsed) return undefined;
  // $elemMatch matches an element as $pull does: a query on a document, or operators on a value.
  const elemQueries = parsed.elemMatches.map(
    ([field, cond]) => [field, pullMatcher(cond)] as const,
  );
  return (doc) => {
    let out = (
      parsed.inclusion ? include(doc, parsed.tree) : exclude(doc, parsed.tree)
    ) as Document;
    if (parsed.inclusion && !parsed.idExcluded && doc._id !== undefined && !('_id' in out))
      out = { _id: doc._id, ...out };
    if (parsed.idExcluded) delete out._id;
    for (const [path, s] of parsed.slices)
      rewrite(out, path.split('.'), (v) => (Array.isArray(v) ? slice(v, s) : v));
    for (const path of parsed.positional) {
      const idx = positionalIndex(doc, path, filter);
      if (idx === undefined)
        throw new ExecutorError(
          2,
          'BadValue',
          "positional operator '.$' couldn't find a matching element in the array",
        );
      rewrite(out, path.split('.'), (v) => (Array.isArray(v) ? [v[idx]] : v));
    }
    for (const [field, q] of elemQueries) {
      const arr = ownField(doc, field);
      delete out[field];
      if (!Array.isArray(arr)) continue;
      const hit = arr.find(q);
      // MongoDB places an $elemMatch result after the other projected fields.
      if (hit !== undefined) defineField(out, field, [hit]);
    }
    return out;
  };
}
