/**
 * CPU cost of each path issue 20 fixed, next to mingo alone (the in-process engine the server
 * used before) doing the same operation in the same run. mingo alone often gives the wrong answer
 * (that was the bug); the column says what the correct answer costs relative to it.
 *
 * Run: npx tsx --conditions=development bench/mongo-embedded/semantics.ts [iterations=20000]
 */
import os from 'node:os';
import { Binary, Double, Long, serialize, type Document } from 'bson';
import { Query } from 'mingo';
import { Context, initOptions, type Options } from 'mingo/core';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import { update as mingoUpdate } from 'mingo/updater';
import {
  applyInt64Operators,
  applyUpdate,
  carryUnchangedNumericTypes,
  Catalog,
  compileProjection,
  compileQuery,
  rememberNumericTypes,
  scanNumericTypes,
  typedForm,
  validateCommand,
} from '@inventory/mongo-embedded/bench';

const N = Number(process.argv[2] ?? 20_000);

/** CPU microseconds per call of `fn`, median of 5 rounds of N calls. */
function cpuPerOp(fn: (i: number) => unknown): number {
  for (let i = 0; i < Math.min(N, 2_000); i++) fn(i); // warm-up
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) fn(i);
    const t = process.cpuUsage(t0);
    rounds.push((t.user + t.system) / N);
  }
  return rounds.sort((a, b) => a - b)[2]!;
}

const order: Document = {
  _id: 1,
  customer: 'c-1',
  lines: Array.from({ length: 20 }, (_, i) => ({ sku: `s${i}`, qty: i })),
  tags: ['a', 'b', 'c'],
  comments: Array.from({ length: 50 }, (_, i) => i),
  child: { name: 'n', age: 3 },
};
// mingo alone, constructed the way the server constructs its queries (storage/mingo.ts: one
// prebuilt context, Query's base class) but with mingo's own operators only.
const ops = (ns: object) =>
  Object.fromEntries(
    Object.entries(ns).filter(([k, v]) => k.startsWith('$') && typeof v === 'function'),
  );
const MINGO_OPTIONS: Options = initOptions({
  context: Context.init()
    .addProjectionOps(ops(projectionOperators) as never)
    .addQueryOps(ops(queryOperators) as never),
});
const QueryImpl = Object.getPrototypeOf(Query) as new (f: Document, o: Options) => Query;
const mingoQuery = (f: Document) => new QueryImpl(f, MINGO_OPTIONS);

const rows: [string, () => unknown, () => unknown][] = [
  [
    '$pull {$or: [subdoc]} (doc.arr.pull)',
    () => applyUpdate(order, { $pull: { lines: { $or: [{ sku: 's3', qty: 3 }] } } }),
    () =>
      mingoUpdate(structuredClone(order), { $pull: { lines: { $or: [{ sku: 's3', qty: 3 }] } } }),
  ],
  [
    '$pull {qty: {$gte: 10}}',
    () => applyUpdate(order, { $pull: { lines: { qty: { $gte: 10 } } } }),
    () => mingoUpdate(structuredClone(order), { $pull: { lines: { qty: { $gte: 10 } } } }),
  ],
  [
    'projection {comments: {$slice: 5}}',
    () => compileProjection({ comments: { $slice: 5 } })!(order),
    () =>
      mingoQuery({})
        .find([order], { comments: { $slice: 5 } })
        .all(),
  ],
  [
    "projection {'child.name': 1}",
    () => compileProjection({ 'child.name': 1 })!(order),
    () => mingoQuery({}).find([order], { 'child.name': 1 }).all(),
  ],
  [
    'projection {lines: {$elemMatch}}',
    () => compileProjection({ lines: { $elemMatch: { qty: 7 } } })!(order),
    () =>
      mingoQuery({})
        .find([order], { lines: { $elemMatch: { qty: 7 } } })
        .all(),
  ],
  [
    '{customer: {$all: [..]}} (scalar)',
    () => compileQuery({ customer: { $all: ['c-1'] } }).test(order),
    () => mingoQuery({ customer: { $all: ['c-1'] } }).test(order),
  ],
  [
    '{bin: {$gt: BinData}}',
    () => compileQuery({ bin: { $gt: new Binary(Buffer.from([1])) } }).test(binDoc),
    () => mingoQuery({ bin: { $gt: new Binary(Buffer.from([1])) } }).test(binDoc),
  ],
  [
    '$inc {n: 1} on an int64 beyond 2^53',
    () => applyUpdate(bigDoc, { $inc: { n: 1 } }),
    () => {
      try {
        return mingoUpdate(structuredClone(bigDoc), { $inc: { n: 1 } });
      } catch (err) {
        return err; // mingo refuses to increment a Long
      }
    },
  ],
  [
    '$inc {n: Long 2^60} on an int32',
    () => applyUpdate(order, { $inc: { qty: bigArg } }),
    () => mingoUpdate(structuredClone(order), { $inc: { qty: bigArg } }),
  ],
  [
    "{n: {$type: 'long'}}",
    () => compileQuery({ n: { $type: 'long' } }).test(typedDoc),
    () => mingoQuery({ n: { $type: 'long' } }).test(typedDoc),
  ],
];
const bigDoc: Document = { _id: 1, n: Long.fromString('1152921504606846977'), s: 'x' };
const bigArg = Long.fromString('1152921504606846976');
const binDoc: Document = { _id: 1, bin: new Binary(Buffer.from([1, 2, 3])) };
const typedBytes = serialize({ _id: 1, n: Long.fromNumber(5), d: new Double(2), s: 'x' });
const typedDoc: Document = { _id: 1, n: 5, d: 2, s: 'x' };
rememberNumericTypes(typedDoc, typedBytes);
const plainBytes = serialize({ _id: 1, sku: 'sku-1', code: 'code-1', qty: 5, at: new Date() });

console.log(
  `machine: ${os.cpus().length} cores, load avg ${os.loadavg()[0]!.toFixed(1)} (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ${N} calls x 5 rounds, median`,
);
console.log('| path | fixed (µs CPU/op) | mingo alone (µs CPU/op) | ratio |');
console.log('| --- | --- | --- | --- |');
for (const [label, fixed, alone] of rows) {
  const a = cpuPerOp(fixed);
  const b = cpuPerOp(alone);
  console.log(`| ${label} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(a / b).toFixed(2)}x |`);
}
// Costs added to every command / every inserted document (no mingo counterpart: absolute figures).
const catalog = new Catalog();
catalog.getOrCreate('bench', 'items');
const extra: [string, () => unknown][] = [
  [
    'numeric-type scan of an inserted document without int64/double',
    () => scanNumericTypes(plainBytes),
  ],
  ['numeric-type scan of a document with int64 + double', () => scanNumericTypes(typedBytes)],
  ['typedForm of a document with recorded types', () => typedForm(typedDoc)],
  ['typedForm of a document without', () => typedForm(order)],
  [
    'int64 check of a plain $inc {qty: 1} (every $inc/$mul/$min/$max)',
    () => applyInt64Operators('$inc', { qty: 1 }, order, order),
  ],
  [
    'types carried over a pipeline update / per-document stage, typed document',
    () => carryUnchangedNumericTypes(typedDoc, { ...typedDoc }),
  ],
  [
    'refusal checks of a find command (filter, collation, hint)',
    () =>
      validateCommand(
        'find',
        { find: 'items', filter: { sku: 'sku-1', qty: { $gt: 1 } } },
        catalog,
        'bench',
      ),
  ],
];
console.log('| added per command / document | µs CPU/op |');
console.log('| --- | --- |');
for (const [label, fn] of extra) console.log(`| ${label} | ${cpuPerOp(fn).toFixed(2)} |`);
