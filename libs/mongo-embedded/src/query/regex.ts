import type { Document } from 'bson';
import type { Options } from 'mingo/core';
import * as evaluation from 'mingo/operators/query/evaluation';
import { pathValues } from '../storage/values.js';

type QueryOperator = (
  selector: string,
  value: unknown,
  options: Options,
) => (obj: Document) => boolean;

/** A stored regular expression's pattern and options (JavaScript RegExp or BSONRegExp). */
export function regexKey(v: unknown): string | undefined {
  if (v instanceof RegExp) return `${v.source}/${[...v.flags].sort().join('')}`;
  const r = v as { _bsontype?: string; pattern?: string; options?: string } | null;
  if (r && typeof r === 'object' && r._bsontype === 'BSONRegExp')
    return `${r.pattern}/${[...(r.options ?? '')].sort().join('')}`;
  return undefined;
}

/** Whether a regex query value matches `v` as MongoDB matches: a string by pattern, a regex by equality. */
export function regexMatches(re: RegExp, key: string, v: unknown): boolean {
  if (typeof v === 'string') {
    re.lastIndex = 0;
    return re.test(v);
  }
  return regexKey(v) === key;
}

/**
 * `{field: /re/}` and `$regex` also match a stored regular expression with the same pattern and
 * options, as MongoDB does; mingo matches strings only.
 */
export const regexOperator: QueryOperator = (selector, value, options) => {
  const fallback = (evaluation as unknown as Record<string, QueryOperator>).$regex!;
  const test = fallback(selector, value, options);
  const key = regexKey(value);
  if (key === undefined) return test;
  return (obj) =>
    test(obj) || pathValues(obj, selector).some((v) => v !== undefined && regexKey(v) === key);
};
