/**
 * Money amounts arrive as decimal strings and leave as the same strings (never a float). For
 * numeric ordering each amount also gets an exact integer count of 1/10,000 units: at most 11
 * integer digits and 4 decimals keeps that count below 2^53 (ADR 0502).
 */
export const DECIMAL_SCALE = 10_000;
const DECIMAL = /^(-?)(\d{1,11})(?:\.(\d{1,4}))?$/;

export interface Decimal {
  /** The amount as written, minus redundant leading zeros and a trailing dot. */
  text: string;
  /** The amount in 1/10,000 units: exact, and ordered like the amount. */
  units: number;
}

export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const integer = String(Number(whole));
  const magnitude = Number(integer) * DECIMAL_SCALE + Number(fraction.padEnd(4, '0'));
  const negative = sign === '-' && magnitude !== 0;
  return {
    text: `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`,
    units: negative ? -magnitude : magnitude,
  };
}
