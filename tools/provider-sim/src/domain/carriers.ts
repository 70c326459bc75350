/**
 * A small carrier table with 17TRACK-style numeric carrier keys, and detection from the
 * shape of the number. Numbers starting with `UNDETECTABLE` can't be detected.
 */
export interface Carrier {
  key: number;
  name: string;
  country: string;
  /** UTC offset used for `time_iso` of this carrier's events. */
  utcOffset: string;
  homepage: string;
}

export const CARRIERS: readonly Carrier[] = [
  {
    key: 21051,
    name: 'USPS',
    country: 'US',
    utcOffset: '-05:00',
    homepage: 'https://www.usps.com/',
  },
  {
    key: 100002,
    name: 'UPS',
    country: 'US',
    utcOffset: '-05:00',
    homepage: 'https://www.ups.com/',
  },
  {
    key: 100003,
    name: 'FedEx',
    country: 'US',
    utcOffset: '-06:00',
    homepage: 'https://www.fedex.com/',
  },
  {
    key: 190271,
    name: 'DHL',
    country: 'DE',
    utcOffset: '+01:00',
    homepage: 'https://www.dhl.com/',
  },
  {
    key: 3011,
    name: 'China Post',
    country: 'CN',
    utcOffset: '+08:00',
    homepage: 'https://www.ems.com.cn/',
  },
  {
    key: 11031,
    name: 'Royal Mail',
    country: 'GB',
    utcOffset: '+00:00',
    homepage: 'https://www.royalmail.com/',
  },
];

/** Carrier used for numbers no rule recognises (so ad-hoc test numbers register fine). */
export const FALLBACK_CARRIER = 3011;

export const UNDETECTABLE_PREFIX = 'UNDETECTABLE';

const RULES: ReadonlyArray<{ pattern: RegExp; carrier: number }> = [
  { pattern: /^1Z[0-9A-Z]{16}$/, carrier: 100002 },
  { pattern: /^(92|93|94|95)\d{20}$/, carrier: 21051 },
  { pattern: /^[A-Z]{2}\d{9}US$/, carrier: 21051 },
  { pattern: /^\d{12}$|^\d{15}$/, carrier: 100003 },
  { pattern: /^\d{10}$|^JJD\d{10,18}$/, carrier: 190271 },
  { pattern: /^[A-Z]{2}\d{9}GB$/, carrier: 11031 },
  { pattern: /^[A-Z]{2}\d{9}CN$/, carrier: 3011 },
];

const byKey = new Map(CARRIERS.map((c) => [c.key, c]));

export function findCarrier(key: number): Carrier | undefined {
  return byKey.get(key);
}

export function carrierName(key: number): string | undefined {
  return byKey.get(key)?.name;
}

/** The carrier key for a number, or `undefined` when it can't be detected. */
export function detectCarrier(number: string): number | undefined {
  const upper = number.toUpperCase();
  if (upper.startsWith(UNDETECTABLE_PREFIX)) return undefined;
  return RULES.find((r) => r.pattern.test(upper))?.carrier ?? FALLBACK_CARRIER;
}
