import { describe, expect, it } from 'vitest';
import {
  CONTENT_FILTER_LIMITS,
  compileContentFilter,
  readContentFilter,
  type ContentFilter,
} from './content-filter.js';

const matches = (filter: ContentFilter, data: unknown) => {
  const read = readContentFilter(filter);
  if (!('filter' in read) || read.filter === null) throw new Error(JSON.stringify(read));
  return compileContentFilter(read.filter)(data);
};
const problemOf = (value: unknown) => {
  const read = readContentFilter(value);
  return 'problem' in read ? read.problem : undefined;
};

describe('content filters: what they match', () => {
  it("keeps the issue's three examples: one warehouse, a SKU prefix, a quantity below a number", () => {
    expect(matches({ warehouse_id: 3 }, { warehouse_id: 3 })).toBe(true);
    expect(matches({ warehouse_id: 3 }, { warehouse_id: 4 })).toBe(false);
    expect(matches({ sku: { $startsWith: 'ACME-' } }, { sku: 'ACME-42' })).toBe(true);
    expect(matches({ sku: { $startsWith: 'ACME-' } }, { sku: 'XACME-42' })).toBe(false);
    expect(matches({ new_quantity: { $lt: 10 } }, { new_quantity: 9 })).toBe(true);
    expect(matches({ new_quantity: { $lt: 10 } }, { new_quantity: 10 })).toBe(false);
  });

  it('treats text operands as literals, never as patterns', () => {
    expect(matches({ sku: { $startsWith: 'A.C' } }, { sku: 'ABC-1' })).toBe(false);
    expect(matches({ sku: { $startsWith: 'A.C' } }, { sku: 'A.C-1' })).toBe(true);
    expect(matches({ sku: { $endsWith: '(x)' } }, { sku: 'a(x)' })).toBe(true);
    expect(matches({ sku: { $contains: '*' } }, { sku: 'a*b' })).toBe(true);
    expect(matches({ sku: { $contains: '*' } }, { sku: 'ab' })).toBe(false);
  });

  it('walks dotted paths and arrays as MongoDB does, and compares within a type only', () => {
    const order = { customer: { country: 'NL' }, lines: [{ sku: 'A' }, { sku: 'ACME-1' }] };
    expect(matches({ 'customer.country': { $in: ['NL', 'BE'] } }, order)).toBe(true);
    expect(matches({ 'lines.sku': { $startsWith: 'ACME-' } }, order)).toBe(true);
    expect(matches({ 'lines.sku': 'B' }, order)).toBe(false);
    expect(matches({ quantity: { $gt: 2 } }, { quantity: '5' })).toBe(false);
    expect(matches({ note: { $exists: false } }, {})).toBe(true);
    expect(matches({ note: null }, {})).toBe(true);
  });

  it('combines with $and, $or and $not', () => {
    const filter = {
      $or: [{ warehouse_id: 3 }, { warehouse_id: { $gte: 10, $lt: 20 } }],
      sku: { $not: { $startsWith: 'TEST-' } },
    };
    expect(matches(filter, { warehouse_id: 3, sku: 'A' })).toBe(true);
    expect(matches(filter, { warehouse_id: 12, sku: 'A' })).toBe(true);
    expect(matches(filter, { warehouse_id: 20, sku: 'A' })).toBe(false);
    expect(matches(filter, { warehouse_id: 3, sku: 'TEST-1' })).toBe(false);
  });

  it('never matches data that is not an object', () => {
    const test = compileContentFilter({ a: { $exists: false } });
    for (const data of [null, undefined, 'text', 3, [{}]]) expect(test(data)).toBe(false);
  });
});

describe('content filters: what is refused, naming the bad part', () => {
  it('takes null, absent and {} as "every event"', () => {
    expect(readContentFilter(null)).toEqual({ filter: null });
    expect(readContentFilter(undefined)).toEqual({ filter: null });
    expect(readContentFilter({})).toEqual({ filter: null });
  });

  it.each([
    ['a list', [], 'The filter must be a JSON object, or null for every event.'],
    ['a string', '{"a":1}', 'The filter must be a JSON object, or null for every event.'],
    ['an unknown operator', { sku: { $regex: 'x' } }, '$regex at filter.sku is not supported'],
    ['$where', { $where: 'sleep(1)' }, '$where is not supported at the filter'],
    ['a prototype key', JSON.parse('{"__proto__": {"a": 1}}'), '"__proto__" at the filter'],
    ['a path through constructor', { 'a.constructor': 1 }, '"a.constructor" at the filter'],
    ['a bad path', { 'a..b': 1 }, 'is not a field path'],
    ['an object operand', { qty: { $lt: { n: 1 } } }, 'filter.qty.$lt must be a string'],
    ['an empty $in', { qty: { $in: [] } }, 'filter.qty.$in must be a list of 1 to 100'],
    ['an object in $in', { qty: { $in: [1, {}] } }, 'filter.qty.$in.1 must be'],
    ['a non-boolean $exists', { qty: { $exists: 1 } }, 'filter.qty.$exists must be true or false'],
    ['an empty $startsWith', { sku: { $startsWith: '' } }, 'must be a non-empty string'],
    ['two text operators', { sku: { $startsWith: 'a', $endsWith: 'b' } }, 'combine several'],
    ['an empty $or', { $or: [] }, '$or at the filter must be a non-empty list'],
    ['a non-object in $and', { $and: [1] }, 'filter.$and.0 must be an object'],
    ['no operator', { sku: {} }, 'filter.sku has no operator'],
    ['NUL in a value', { sku: 'a\u0000b' }, 'must not contain NUL characters'],
    ['Infinity', { qty: { $lt: Infinity } }, 'filter.qty.$lt must be'],
  ])('refuses %s', (_name, value, message) => {
    expect(problemOf(value)).toContain(message);
  });

  it('bounds size, depth and the number of conditions', () => {
    let deep: Record<string, unknown> = { a: 1 };
    for (let i = 0; i < CONTENT_FILTER_LIMITS.maxDepth; i++) deep = { $and: [deep] };
    expect(problemOf(deep)).toContain('nests deeper than 5 levels');
    const many = Object.fromEntries(
      Array.from({ length: CONTENT_FILTER_LIMITS.maxConditions + 1 }, (_, i) => [`f${i}`, i]),
    );
    expect(problemOf(many)).toBe('The filter may have at most 50 conditions.');
    expect(problemOf({ a: 'x'.repeat(5000) })).toBe(
      'The filter may be at most 4096 characters as JSON.',
    );
    expect(problemOf({ a: 'x'.repeat(300) })).toBe('filter.a may have at most 256 characters.');
  });
});
