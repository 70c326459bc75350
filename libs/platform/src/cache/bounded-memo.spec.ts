import { describe, expect, it } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

describe('BoundedMemo', () => {
  it('computes each key once, and starts over past its bound', () => {
    const computed: string[] = [];
    const memo = new BoundedMemo((key: string) => {
      computed.push(key);
      return key.toUpperCase();
    }, 2);
    expect([memo.get('a'), memo.get('b'), memo.get('a'), memo.get('b')]).toEqual([
      'A',
      'B',
      'A',
      'B',
    ]);
    expect(computed).toEqual(['a', 'b']);
    // A third key clears the two kept: each is computed again when next asked for.
    expect(memo.get('c')).toBe('C');
    expect(memo.get('a')).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps an undefined result as a result', () => {
    let calls = 0;
    const memo = new BoundedMemo(() => {
      calls++;
      return undefined;
    });
    memo.get('x');
    memo.get('x');
    expect(calls).toBe(1);
  });
});
