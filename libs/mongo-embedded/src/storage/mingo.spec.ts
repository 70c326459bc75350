import { Context, initOptions } from 'mingo/core';
import { Query } from 'mingo';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileQuery } from './mingo.js';

afterEach(() => vi.restoreAllMocks());

describe('compileQuery', () => {
  it('does not copy the operator registry per query', () => {
    const from = vi.spyOn(Context, 'from');
    compileQuery({ sku: 'a', qty: { $gte: 2 } });
    expect(from).not.toHaveBeenCalled();
  });

  it('matches exactly what a public mingo Query matches', () => {
    const docs = [
      { _id: 1, a: [{ b: 1 }, { b: 5 }], c: 'xy', n: 3, t: null },
      { _id: 2, a: [{ b: 2 }], c: 'zz', n: 10, d: new Date(5) },
      { _id: 3, c: null, n: '3' },
    ];
    const filters: Record<string, unknown>[] = [
      { a: { $elemMatch: { b: { $gt: 3 } } } },
      { c: { $regex: '^x' } },
      { $expr: { $gt: ['$n', 5] } },
      { $or: [{ n: { $in: [3, 10] } }, { c: null }] },
      { t: { $exists: true } },
      { n: { $type: 'string' } },
      { d: { $lt: new Date(10) } },
      { 'a.b': 2 },
      { $nor: [{ c: 'xy' }] },
    ];
    const opts = initOptions({});
    for (const f of filters) {
      const expected = docs.filter((d) => new Query(f, opts).test(d)).map((d) => d._id);
      expect(
        docs.filter((d) => compileQuery(f).test(d)).map((d) => d._id),
        JSON.stringify(f),
      ).toEqual(expected);
    }
  });

  it('rejects unknown operators as before', () => {
    expect(() => compileQuery({ a: { $nope: 1 } })).toThrow(/unknown query operator/);
  });
});
