import { Binary, BSONRegExp, Code } from 'bson';
import { describe, expect, it } from 'vitest';
import { DuplicateKeyError } from '../errors.js';
import { IndexStore } from './index-store.js';
import { idOf } from './ordered-keys.js';
import { MULTI, encodeKey, pathValues, singlePathValue } from './values.js';

const dupOf = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DuplicateKeyError);
    return (e as DuplicateKeyError).extra;
  }
  throw new Error('expected a duplicate key error');
};

describe('singlePathValue', () => {
  it('agrees with pathValues whenever no array is on the path', () => {
    const doc = { a: { b: 1, d: new Date(5) }, s: 'x', n: null, arr: [1, 2], e: [] };
    for (const path of ['a.b', 'a.d', 'a.d.x', 's', 's.x', 'n', 'n.x', 'missing', 'a.missing.x']) {
      expect([singlePathValue(doc, path.split('.'))]).toEqual(pathValues(doc, path));
    }
    expect(singlePathValue(doc, ['arr'])).toBe(MULTI);
    expect(singlePathValue(doc, ['e'])).toBe(MULTI);
    expect(singlePathValue({ x: [{ y: 1 }] }, ['x', 'y'])).toBe(MULTI);
    expect(pathValues({ x: [{ y: 1 }, { y: 2 }] }, 'x.y')).toEqual([1, 2]);
    expect(pathValues({ x: [] }, 'x.y')).toEqual([undefined]);
    expect(pathValues({ x: [5, 6] }, 'x.1')).toEqual([6]);
  });
});

describe('IndexStore', () => {
  it('enforces a single-field unique key and reports keyValue', () => {
    const idx = new IndexStore({ key: { email: 1 }, name: 'email_1', unique: true }, 'd.c');
    idx.add({ _id: 1, email: 'a' }, 'i1');
    expect(() => idx.checkUnique({ _id: 1, email: 'a' }, 'i1')).not.toThrow();
    expect(dupOf(() => idx.checkUnique({ _id: 2, email: 'a' }, 'i2'))).toMatchObject({
      keyPattern: { email: 1 },
      keyValue: { email: 'a' },
    });
    // A missing field is a null key, unique like any other.
    idx.add({ _id: 3 }, 'i3');
    expect(dupOf(() => idx.checkUnique({ _id: 4, email: null }, 'i4'))).toMatchObject({
      keyValue: { email: null },
    });
  });

  it('enforces compound and multikey unique keys', () => {
    const idx = new IndexStore({ key: { t: 1, tags: 1 }, name: 't_tags', unique: true }, 'd.c');
    idx.add({ t: 'x', tags: ['a', 'b', 'a'] }, 'i1');
    expect(() => idx.checkUnique({ t: 'y', tags: ['a'] }, 'i2')).not.toThrow();
    expect(dupOf(() => idx.checkUnique({ t: 'x', tags: ['c', 'b'] }, 'i2'))).toMatchObject({
      keyValue: { t: 'x', tags: 'b' },
    });
    expect(dupOf(() => idx.checkUnique({ t: 'x', tags: 'a' }, 'i2'))).toMatchObject({
      keyValue: { t: 'x', tags: 'a' },
    });
    idx.remove({ t: 'x', tags: ['a', 'b', 'a'] }, 'i1');
    expect(() => idx.checkUnique({ t: 'x', tags: 'a' }, 'i2')).not.toThrow();
  });

  it('never mistakes string contents for compound key boundaries', () => {
    const idx = new IndexStore({ key: { a: 1, b: 1 }, name: 'a_b', unique: true }, 'd.c');
    // With `|`-joined keys both of these were `|sx|sy|sz`.
    idx.add({ a: 'x|sy', b: 'z' }, 'i1');
    expect(() => idx.checkUnique({ a: 'x', b: 'y|sz' }, 'i2')).not.toThrow();
    idx.add({ a: 'x', b: 'y|sz' }, 'i2');
    // Strings shaped like the length prefixes.
    idx.add({ a: 'x2:sy', b: 'z' }, 'i3');
    expect(() => idx.checkUnique({ a: 'x', b: 'y2:sz' }, 'i4')).not.toThrow();
    // The multikey (general) path builds the same keys as the single-valued one.
    expect(() => idx.checkUnique({ a: ['x', 'q'], b: 'y|sz|' }, 'i5')).not.toThrow();
    expect(dupOf(() => idx.checkUnique({ a: ['q', 'x'], b: 'y|sz' }, 'i5'))).toMatchObject({
      keyValue: { a: 'x', b: 'y|sz' },
    });
    expect(dupOf(() => idx.checkUnique({ a: 'x|sy', b: 'z' }, 'i5'))).toMatchObject({
      keyPattern: { a: 1, b: 1 },
      keyValue: { a: 'x|sy', b: 'z' },
    });
    idx.remove({ a: 'x|sy', b: 'z' }, 'i1');
    expect(() => idx.checkUnique({ a: 'x|sy', b: 'z' }, 'i5')).not.toThrow();
    expect(() => idx.checkUnique({ a: 'x', b: 'y|sz' }, 'i5')).toThrow(DuplicateKeyError);
  });

  it('keeps distinct embedded documents, arrays and binaries apart in a single-field key', () => {
    const idx = new IndexStore({ key: { v: 1 }, name: 'v_1', unique: true }, 'd.c');
    const distinct: unknown[] = [
      { x: 'a,"y":sb' },
      { x: 'a', y: 'b' },
      [['a,sb']],
      [['a', 'b']],
      new Binary(Buffer.from([0xff, 1]), 4),
      new Binary(Buffer.from([0xfe, 1]), 4),
      new Binary(Buffer.from([0xff, 1]), 0),
    ];
    distinct.forEach((v, i) => {
      expect(() => idx.checkUnique({ v }, `i${i}`)).not.toThrow();
      idx.add({ v }, `i${i}`);
    });
    expect(() => idx.checkUnique({ v: { x: 'a', y: 'b' } }, 'new')).toThrow(DuplicateKeyError);
    expect(() => idx.checkUnique({ v: new Binary(Buffer.from([0xfe, 1]), 4) }, 'new')).toThrow(
      DuplicateKeyError,
    );
    expect(lookup(idx, [{ x: 'a', y: 'b' }])).toEqual(['i1']);
    expect(encodeKey(new BSONRegExp('a', 'i'))).not.toBe(encodeKey(new BSONRegExp('b', 'i')));
    expect(encodeKey(new Code('f()'))).not.toBe(encodeKey(new Code('g()')));
  });

  it('keeps entries in key order, then natural order, as they grow and shrink', () => {
    const idx = new IndexStore({ key: { k: 1 }, name: 'k_1' }, 'd.c');
    idx.add({ k: 1 }, 'a', 0);
    expect(lookup(idx, [1])).toEqual(['a']);
    idx.add({ k: 1 }, 'b', 1);
    idx.add({ k: [2, 1] }, 'c', 2);
    expect(lookup(idx, [1])).toEqual(['a', 'b', 'c']);
    expect(lookup(idx, [2])).toEqual(['c']);
    expect(idx.multikey).toBe(true);
    idx.remove({ k: 1 }, 'a', 0);
    idx.remove({ k: [2, 1] }, 'c', 2);
    expect([...idx.ordered.all()].map(idOf)).toEqual(['b']);
    idx.remove({ k: 1 }, 'b', 1);
    expect(idx.ordered.size).toBe(0);
  });

  it('skips documents outside a sparse or partial index, and finds expired dates', () => {
    const sparse = new IndexStore(
      { key: { c: 1 }, name: 'c_1', unique: true, sparse: true },
      'd.c',
    );
    sparse.add({ n: 1 }, 'a');
    expect(() => sparse.checkUnique({ n: 2 }, 'b')).not.toThrow();
    const partial = new IndexStore(
      { key: { e: 1 }, name: 'e_1', unique: true, partialFilterExpression: { on: true } },
      'd.c',
    );
    partial.add({ e: 'p', on: false }, 'a');
    expect(() => partial.checkUnique({ e: 'p', on: true }, 'b')).not.toThrow();
    partial.add({ e: 'p', on: true }, 'b');
    expect(() => partial.checkUnique({ e: 'p', on: true }, 'c')).toThrow(DuplicateKeyError);
    const ttl = new IndexStore({ key: { at: 1 }, name: 'at_1', expireAfterSeconds: 1 }, 'd.c');
    ttl.add({ at: new Date(10) }, 'a');
    ttl.add({ at: new Date(10) }, 'b');
    ttl.add({ at: new Date(20) }, 'c');
    ttl.add({ at: 'not a date' }, 'd');
    expect(ttl.expiredIds(15).sort()).toEqual(['a', 'b']);
  });

  it('expires each date once, in any insertion order, and skips documents removed meanwhile', () => {
    const ttl = new IndexStore({ key: { at: 1 }, name: 'at_1', expireAfterSeconds: 1 }, 'd.c');
    const remove = (doc: { at: unknown }, id: string) => ttl.remove(doc, id);
    ttl.add({ at: new Date(30) }, 'late');
    ttl.add({ at: new Date(10) }, 'early'); // arrives after a later date
    ttl.add({ at: [new Date(50), new Date(5)] }, 'array'); // its earliest date counts
    ttl.add({ at: new Date(12) }, 'gone');
    remove({ at: new Date(12) }, 'gone');
    ttl.add({ at: new Date(Number.NaN) }, 'invalid');

    expect(ttl.expiredIds(12).sort()).toEqual(['array', 'early']);
    // The caller removes what expired; a sweep with nothing newly due returns nothing.
    remove({ at: new Date(10) }, 'early');
    remove({ at: [new Date(50), new Date(5)] }, 'array');
    expect(ttl.expiredIds(12)).toEqual([]);

    // A key removed and added again is found again.
    ttl.add({ at: new Date(12) }, 'back');
    expect(ttl.expiredIds(40)).toEqual(expect.arrayContaining(['back', 'late']));
    expect(ttl.expiredIds(40)).toHaveLength(0);

    const plain = new IndexStore({ key: { at: 1 }, name: 'at_1' }, 'd.c');
    plain.add({ at: new Date(1) }, 'x');
    expect(plain.expiredIds(100)).toEqual([]);
  });

  it('looks up a key shared by a few hundred thousand documents (a tenant request log)', () => {
    const idx = new IndexStore({ key: { tenant: 1 }, name: 'tenant_1' }, 'd.c');
    for (let i = 0; i < 300_000; i++) idx.add({ tenant: 't1' }, `id${i}`, i);
    const ids = lookup(idx, ['t1']);
    expect(ids).toHaveLength(300_000);
    expect(ids[299_999]).toBe('id299999');
  });

  it('orders compound keys by each field in its direction, arrays expanded', () => {
    const idx = new IndexStore({ key: { t: 1, k: 1, at: -1 }, name: 't_1_k_1_at_-1' }, 'd.c');
    idx.add({ t: 'a', k: 1, at: 1 }, 'x', 0);
    idx.add({ t: 'a', k: 1, at: 2 }, 'y', 1);
    idx.add({ t: 'a', k: 2 }, 'z', 2);
    idx.add({ t: 'b', k: 1 }, 'w', 3);
    idx.add({ t: ['a', 'c'], k: [1, 3] }, 'multi', 4);
    idx.add({ t: 'a' }, 'missing', 5); // a missing field is indexed as null, before numbers
    idx.add({ t: 'a1', k: 1 }, 'near', 6);

    expect(lookup(idx, ['a', 1])).toEqual(['y', 'x', 'multi']);
    expect(lookup(idx, ['a'])).toEqual(['missing', 'y', 'x', 'multi', 'z', 'multi']);
    expect(lookup(idx, ['c', 3])).toEqual(['multi']);
    expect(lookup(idx, ['a', null])).toEqual(['missing']);
    expect(lookup(idx, ['a1', 1])).toEqual(['near']);

    idx.remove({ t: 'a', k: 1, at: 1 }, 'x', 0);
    idx.remove({ t: ['a', 'c'], k: [1, 3] }, 'multi', 4);
    expect(lookup(idx, ['a', 1])).toEqual(['y']);
    expect(lookup(idx, ['c', 3])).toEqual([]);
  });
});

/** Ids of the entries whose key starts with `prefix`, in index order. */
function lookup(idx: IndexStore, prefix: unknown[]): string[] {
  const keys = idx.ordered;
  return [...keys.walk(keys.lowerBound(prefix, true), keys.upperBound(prefix, true), 1)].map(idOf);
}
