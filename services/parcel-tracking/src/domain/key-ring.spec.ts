import { describe, expect, it } from 'vitest';
import { encryptedKeyFor, groupByKey, retire } from './key-ring.js';

const ring = {
  current: 'enc-new',
  retired: [{ key_ref: 'ref-old', api_key_encrypted: 'enc-old' }],
};

describe('key ring', () => {
  it('finds the key that registered a row, the current one when it is not retired', () => {
    expect(encryptedKeyFor(ring, 'ref-old')).toBe('enc-old');
    expect(encryptedKeyFor(ring, 'ref-new')).toBe('enc-new');
    expect(encryptedKeyFor(ring, null)).toBe('enc-new');
  });

  it('groups items by their key', () => {
    const groups = groupByKey(
      ring,
      [
        { n: 1, key_ref: 'ref-old' },
        { n: 2, key_ref: null },
        { n: 3, key_ref: 'ref-old' },
      ],
      (item) => item.key_ref,
    );
    expect([...groups.entries()].map(([key, items]) => [key, items.map((i) => i.n)])).toEqual([
      ['enc-old', [1, 3]],
      ['enc-new', [2]],
    ]);
  });

  it('keeps one entry per retired key, the latest rotation last', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const once = retire([], { key_ref: 'a', api_key_encrypted: 'enc-a1' }, at);
    const twice = retire(once, { key_ref: 'b', api_key_encrypted: 'enc-b' }, at);
    const back = retire(twice, { key_ref: 'a', api_key_encrypted: 'enc-a2' }, at);
    expect(back.map((key) => [key.key_ref, key.api_key_encrypted])).toEqual([
      ['b', 'enc-b'],
      ['a', 'enc-a2'],
    ]);
  });
});
