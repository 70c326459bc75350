import { describe, expect, it } from 'vitest';
import { applyPull } from './pull.js';

describe('applyPull', () => {
  it('treats a document condition as a query on document elements only', () => {
    const doc = { arr: [{ a: 1, b: 2 }, { a: 1 }, 1, { a: 2 }] };
    expect(applyPull(doc, '$pull', { arr: { a: 1 } })).toBe(true);
    expect(doc.arr).toEqual([1, { a: 2 }]);
  });

  it('treats $or/$and as queries and value operators as conditions on each element', () => {
    const doc = { arr: [{ a: 1 }, { a: 2 }, { a: 3 }], n: [1, 5, 9] };
    applyPull(doc, '$pull', { arr: { $or: [{ a: 1 }, { a: 3 }] }, n: { $gte: 5 } });
    expect(doc).toEqual({ arr: [{ a: 2 }], n: [1] });
  });

  it('removes equal values with $pullAll and ignores missing paths', () => {
    const doc = { arr: [1, 2, 1, 3], sub: { list: ['x', 'y'] } };
    expect(applyPull(doc, '$pullAll', { arr: [1, 3], 'sub.list': ['y'], missing: [1] })).toBe(true);
    expect(doc).toEqual({ arr: [2], sub: { list: ['x'] } });
    expect(applyPull(doc, '$pull', { 'nope.deeper': 1 })).toBe(false);
  });

  it('refuses a non-array target', () => {
    expect(() => applyPull({ v: 1 }, '$pull', { v: 1 })).toThrow(/non-array/);
  });
});
