/** What the prototypes every object shares look like, to see that no request changed them. */
export function prototypeShapes(): string {
  return [Object.prototype, Function.prototype, Array.prototype]
    .map((p) => Object.getOwnPropertyNames(p).sort().join(','))
    .join('|');
}

/** The value at a dotted path, following own fields only (what was stored, not what is inherited). */
export function ownAt(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part))
      return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** `{a: {b: value}}` for `'a.b'`, with every key an own field (`__proto__` included). */
export function nested(path: string, value: unknown): Record<string, unknown> {
  return path.split('.').reduceRight<unknown>(
    (inner, key) =>
      Object.defineProperty({}, key, {
        value: inner,
        writable: true,
        enumerable: true,
        configurable: true,
      }),
    value,
  ) as Record<string, unknown>;
}

/** An object with one own field named `key` (an object literal's `__proto__: v` sets the prototype). */
export const field = (key: string, value: unknown): Record<string, unknown> => nested(key, value);
