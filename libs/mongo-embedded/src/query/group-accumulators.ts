import type { Document } from 'bson';
import type { Options } from 'mingo/core';
import {
  $first as mingoFirstExpression,
  $last as mingoLastExpression,
} from 'mingo/operators/expression/array';
import { $addToSet as mingoAddToSet, $push as mingoPush } from 'mingo/operators/accumulator';
import { compareBson } from '../storage/bson-order.js';
import { isNumeric, toDouble } from './arithmetic-expressions.js';

/**
 * The accumulators whose answer differs from MongoDB 7.0's when a field is null or missing. mingo
 * answers `undefined` (the group's output leaves the field out) where MongoDB answers null:
 * `$max`/`$min` ignore null and missing and are null when nothing is left, `$first`/`$last` are
 * null for a missing field, `$avg` is null without a numeric value (mingo: 0); `$push` and
 * `$addToSet` leave missing values out (mingo pushed them, sent as null).
 * Called with `expr` null they are expressions over an array (`{$max: [...]}`), same rules.
 */

type Acc = (collection: Document[], expr: unknown, options: Options) => unknown;

const nullish = (v: unknown) => v === null || v === undefined;
const values = (collection: Document[], expr: unknown, options: Options): unknown[] =>
  (expr === null || expr === undefined
    ? collection
    : (mingoPush(collection, expr, options) as unknown[])) as unknown[];

/** `$max`/`$min` in MongoDB's cross-type order, null and missing ignored. */
const extreme =
  (sign: 1 | -1): Acc =>
  (collection, expr, options) => {
    let best: unknown = null;
    for (const v of values(collection, expr, options)) {
      if (nullish(v)) continue;
      if (best === null || sign * compareBson(v, best) > 0) best = v;
    }
    return best;
  };

const $avg: Acc = (collection, expr, options) => {
  let sum = 0;
  let count = 0;
  for (const v of values(collection, expr, options)) {
    if (!isNumeric(v)) continue;
    sum += toDouble(v);
    count++;
  }
  return count === 0 ? null : sum / count;
};

const withoutMissing =
  (acc: Acc): Acc =>
  (collection, expr, options) => {
    const v = acc(collection, expr, options);
    return Array.isArray(v) && !nullish(expr) ? v.filter((x) => x !== undefined) : v;
  };

export const GROUP_ACCUMULATORS = {
  $max: extreme(1),
  $min: extreme(-1),
  $avg,
  $push: withoutMissing(mingoPush as Acc),
  $addToSet: withoutMissing(mingoAddToSet as Acc),
};

type Expression = (obj: Document | Document[], expr: unknown, options: Options) => unknown;

/**
 * mingo resolves `$first`/`$last` inside `$group` to its array expressions, which run the
 * accumulator when handed the group (an array); that path gets the null for a missing field too.
 */
const groupAware =
  (expression: Expression): Expression =>
  (obj, expr, options) => {
    const v = expression(obj, expr, options);
    return v === undefined && Array.isArray(obj) ? null : v;
  };

export const GROUP_EXPRESSIONS = {
  $first: groupAware(mingoFirstExpression as Expression),
  $last: groupAware(mingoLastExpression as Expression),
};
