import { describe, expect, it } from 'vitest';
import { compileProjection } from './projection.js';

const doc = {
  _id: 1,
  a: 1,
  arr: [1, 2, 3, 4],
  sub: [{ x: 1, y: 2 }, 5, { y: 3 }],
  child: { n: 'n', m: 2 },
};
const project = (spec: object, filter?: object) => compileProjection(spec, filter)!(doc);

describe('compileProjection', () => {
  it('includes in document order with _id first, descending into arrays of subdocuments', () => {
    expect(Object.keys(project({ child: 1, a: 1 }))).toEqual(['_id', 'a', 'child']);
    expect(project({ 'sub.y': 1, _id: 0 })).toEqual({ sub: [{ y: 2 }, { y: 3 }] });
    expect(project({ 'missing.x': 1 })).toEqual({ _id: 1 });
  });

  it('excludes nested paths and keeps scalars inside arrays', () => {
    expect(project({ 'sub.y': 0, child: 0, arr: 0 })).toEqual({
      _id: 1,
      a: 1,
      sub: [{ x: 1 }, 5, {}],
    });
  });

  it('slices with a count, a negative count and [skip, limit]', () => {
    expect(project({ arr: { $slice: 2 } }).arr).toEqual([1, 2]);
    expect(project({ arr: { $slice: -1 } }).arr).toEqual([4]);
    expect(project({ arr: { $slice: [1, 2] } }).arr).toEqual([2, 3]);
    expect(project({ arr: { $slice: [-3, 1] } }).arr).toEqual([2]);
  });

  it('answers $elemMatch and positional $ with the first matching element, or leaves the field out', () => {
    expect(project({ sub: { $elemMatch: { y: { $gt: 2 } } } })).toEqual({
      _id: 1,
      sub: [{ y: 3 }],
    });
    expect(project({ sub: { $elemMatch: { y: 9 } } })).toEqual({ _id: 1 });
    expect(project({ 'arr.$': 1 }, { arr: { $gte: 3 } })).toEqual({ _id: 1, arr: [3] });
  });

  it('refuses mixing inclusion and exclusion and leaves computed projections to mingo', () => {
    expect(() => compileProjection({ a: 1, arr: 0 })).toThrow(/Cannot do exclusion/);
    expect(compileProjection({ total: { $add: ['$a', 1] } })).toBeUndefined();
  });
});
