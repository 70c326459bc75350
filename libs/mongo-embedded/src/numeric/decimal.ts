/**
 * Decimal128 compared with every other numeric type exactly, as MongoDB compares them: a decimal
 * and a double are equal only when the double's binary value is the decimal's exact value
 * (`Decimal128('0.1')` is not the double 0.1), and 2, 2.0 and `Decimal128('2.00')` are equal.
 */
type Exact =
  { kind: 'nan' } | { kind: 'inf'; neg: boolean } | { kind: 'finite'; coef: bigint; exp: number };

type Tagged = { _bsontype?: string };

export const isDecimal = (v: unknown): boolean =>
  !!v && typeof v === 'object' && (v as Tagged)._bsontype === 'Decimal128';

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:E([+-]?\d+))?$/i;

function fromText(text: string): Exact {
  if (/nan/i.test(text)) return { kind: 'nan' };
  if (/inf/i.test(text)) return { kind: 'inf', neg: text.startsWith('-') };
  const m = DECIMAL_TEXT.exec(text);
  if (!m) return { kind: 'nan' };
  const frac = m[3] ?? '';
  const coef = BigInt(`${m[2]}${frac}`);
  return { kind: 'finite', coef: m[1] ? -coef : coef, exp: Number(m[4] ?? 0) - frac.length };
}

function fromNumber(v: number): Exact {
  if (Number.isNaN(v)) return { kind: 'nan' };
  if (!Number.isFinite(v)) return { kind: 'inf', neg: v < 0 };
  if (Number.isInteger(v)) return { kind: 'finite', coef: BigInt(v), exp: 0 };
  // v = m / 2^e with m an integer; doubling is exact, and m / 2^e = m * 5^e / 10^e.
  let m = v;
  let e = 0;
  while (!Number.isInteger(m)) {
    m *= 2;
    e++;
  }
  return { kind: 'finite', coef: BigInt(m) * 5n ** BigInt(e), exp: -e };
}

/** The exact value of any BSON number (plain number, Long, Int32, Double, Decimal128). */
export function exactOf(v: unknown): Exact {
  if (typeof v === 'number') return fromNumber(v);
  if (typeof v === 'bigint') return { kind: 'finite', coef: v, exp: 0 };
  const tag = (v as Tagged | null)?._bsontype;
  if (tag === 'Decimal128') return fromText(String(v));
  if (tag === 'Long')
    return { kind: 'finite', coef: (v as { toBigInt(): bigint }).toBigInt(), exp: 0 };
  return fromNumber(Number((v as { valueOf(): unknown }).valueOf()));
}

const sign = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);

/** Total order: NaN first (equal to itself), then -Infinity, finite values, +Infinity. */
export function compareExact(a: Exact, b: Exact): number {
  const rank = (x: Exact) => (x.kind === 'nan' ? 0 : x.kind === 'inf' ? (x.neg ? 1 : 3) : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb || ra !== 2) return ra < rb ? -1 : ra > rb ? 1 : 0;
  const fa = a as Extract<Exact, { kind: 'finite' }>;
  const fb = b as Extract<Exact, { kind: 'finite' }>;
  const sa = sign(fa.coef);
  const sb = sign(fb.coef);
  if (sa !== sb || sa === 0) return sa < sb ? -1 : sa > sb ? 1 : 0;
  const exp = Math.min(fa.exp, fb.exp);
  const x = fa.coef * 10n ** BigInt(fa.exp - exp);
  const y = fb.coef * 10n ** BigInt(fb.exp - exp);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const compareWithDecimal = (a: unknown, b: unknown): number =>
  compareExact(exactOf(a), exactOf(b));

/**
 * The equality key of a Decimal128 (see `encodeKey`): the key of the number it equals exactly
 * when there is one, so `{n: 2}` finds `Decimal128('2.0')` in a map, else its normalised value.
 */
export function decimalKey(d: unknown): string {
  const e = exactOf(d);
  const n = Number(String(d));
  if (compareExact(e, fromNumber(n)) === 0) return `n${Object.is(n, -0) ? 0 : n}`;
  if (e.kind !== 'finite') return `n${n}`;
  let { coef, exp } = e;
  while (coef !== 0n && coef % 10n === 0n) {
    coef /= 10n;
    exp++;
  }
  // An integer beyond 2^53 keys as an int64 of the same value does.
  if (exp >= 0) return `n${coef * 10n ** BigInt(exp)}`;
  return `Decimal128:${coef}e${exp}`;
}
