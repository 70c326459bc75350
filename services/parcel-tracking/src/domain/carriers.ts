/**
 * Names of the provider's common numeric carrier codes, for rows the provider
 * has accepted but not yet reported on; `gettrackinfo` and webhooks replace it
 * with the provider's own name.
 */
const CARRIER_NAMES: Record<number, string> = {
  100002: 'UPS',
  21051: 'USPS',
  100003: 'FedEx',
  190271: 'DHL',
  11031: 'Royal Mail',
  3011: 'China Post',
};

export const carrierName = (code: number | null | undefined): string | null =>
  code === null || code === undefined ? null : (CARRIER_NAMES[code] ?? null);
