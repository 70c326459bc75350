import type { Document } from 'bson';
import { compileQuery } from '../storage/mingo.js';

/** The filter's predicates on `prefix` or below it, including those inside a top-level `$and`. */
function conditionsOn(filter: Document, prefix: string, out: [string, unknown][] = []) {
  for (const [k, c] of Object.entries(filter)) {
    if (k === '$and' && Array.isArray(c))
      for (const sub of c) conditionsOn(sub as Document, prefix, out);
    else if (k === prefix || k.startsWith(`${prefix}.`)) out.push([k, c]);
  }
  return out;
}

/**
 * Index of the first element of the array at `prefix` that satisfies every predicate the filter
 * places on that array (what the positional `$` refers to), or undefined when there is none.
 */
export function positionalIndex(
  doc: Document,
  prefix: string,
  filter: Document,
): number | undefined {
  const arr = prefix
    .split('.')
    .reduce<unknown>((cur, k) => (cur as Document | undefined)?.[k], doc);
  if (!Array.isArray(arr)) return undefined;
  const conds = conditionsOn(filter, prefix);
  if (conds.length === 0) return undefined;
  const tests = conds.map(([k, c]) =>
    k === prefix
      ? (
          (q) => (el: unknown) =>
            q.test({ v: [el] })
        )(compileQuery({ v: c }))
      : (
          (q) => (el: unknown) =>
            !!el && typeof el === 'object' && q.test(el as Document)
        )(compileQuery({ [k.slice(prefix.length + 1)]: c })),
  );
  const idx = arr.findIndex((el) => tests.every((t) => t(el)));
  return idx < 0 ? undefined : idx;
}
