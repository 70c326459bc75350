import type { Document } from 'bson';
import { encodeKey } from '../storage/values.js';
import { NUMERIC_ARGS, shiftArrayTypes, type NumericType } from './types.js';

/** Where an update command's statement lives in it (`updates.0.u`, `update`), to read its numeric args. */
export interface UpdateSource {
  command: Document;
  path: string;
}

const arrayAt = (doc: unknown, field: string): unknown[] => {
  let cur = doc;
  for (const part of field.split('.')) cur = (cur as Document | null | undefined)?.[part];
  return Array.isArray(cur) ? cur : [];
};

/**
 * The document paths that the int64 / integral-double values of `$push` and `$addToSet` arguments
 * landed at (an element's index is only known once the update ran): `$push` inserts its values at
 * `$position` (default: the end), `$addToSet` appends those not already present. A `$push` with
 * `$sort` or `$slice` reorders or drops elements, so its values are not traced (they come back by value).
 */
export function pushedNumericTypes(
  source: UpdateSource | undefined,
  spec: unknown,
  before: Document,
  after: Document,
): Map<string, NumericType> | undefined {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return undefined;
  const all =
    (source?.command as Record<symbol, Map<string, NumericType> | undefined> | undefined)?.[
      NUMERIC_ARGS
    ] ?? new Map<string, NumericType>();
  let out: Map<string, NumericType> | undefined;
  for (const op of ['$push', '$addToSet'] as const) {
    const args = (spec as Document)[op] as Document | undefined;
    if (!args || typeof args !== 'object') continue;
    const prefix = `${source?.path}.${op}.`;
    for (const [field, arg] of Object.entries(args)) {
      const modifiers = !!arg && typeof arg === 'object' && '$each' in (arg as Document);
      const values: unknown[] = modifiers ? ((arg as Document).$each as unknown[]) : [arg];
      const old = arrayAt(before, field);
      const index = landing(op, arg as Document, modifiers, values, old, arrayAt(after, field));
      // Elements pushed in front of others move those (and their recorded types) up.
      if (op === '$push') {
        const first = index?.[0] ?? 0;
        shiftArrayTypes(before, after, field, index ? first : 0, index ? values.length : null);
      }
      if (!index) continue;
      const at = modifiers ? `${prefix}${field}.$each.` : `${prefix}${field}`;
      for (const [path, t] of all) {
        if (!path.startsWith(at)) continue;
        // `<i>` or `<i>.<sub path>` after `$each.`; the whole value (or a sub path) without `$each`.
        const rest = path.slice(at.length);
        const [i, sub] = modifiers
          ? [Number(rest.split('.')[0]), rest.split('.').slice(1).join('.')]
          : [0, rest.startsWith('.') ? rest.slice(1) : rest];
        const target = index[i];
        if (target === undefined) continue;
        (out ??= new Map()).set(`${field}.${target}${sub ? `.${sub}` : ''}`, t);
      }
    }
  }
  return out;
}

/** Index in the updated array of each pushed value (undefined: not added, or not traceable). */
function landing(
  op: '$push' | '$addToSet',
  arg: Document,
  modifiers: boolean,
  values: unknown[],
  old: unknown[],
  now: unknown[],
): (number | undefined)[] | undefined {
  if (!Array.isArray(values)) return undefined;
  if (op === '$push') {
    if (modifiers && (arg.$sort !== undefined || arg.$slice !== undefined)) return undefined;
    const base = old.length;
    let p = modifiers && typeof arg.$position === 'number' ? arg.$position : base;
    if (p < 0) p = Math.max(0, base + p);
    p = Math.min(p, base);
    return now.length === base + values.length ? values.map((_, i) => p + i) : undefined;
  }
  const seen = new Set(old.map(encodeKey));
  let next = old.length;
  return values.map((v) => {
    const k = encodeKey(v);
    if (seen.has(k)) return undefined;
    seen.add(k);
    return next++;
  });
}
