import { normaliseCidr } from './cidr.js';
import { isKnownScope } from '@inventory/access';
import { controlCharactersMessage, hasControlCharacters } from '@inventory/rules';
import type { Violations } from './validation.js';
import { messages } from './validation.js';

export const PLATFORM_RATE_LIMIT_PER_MINUTE = 1_000;
export const MAX_NAME_LENGTH = 255;
export const MAX_ALLOWLIST_ENTRIES = 100;

export function checkName(name: string | undefined, violations: Violations): void {
  if (name === undefined || name.trim() === '') violations.add('name', messages.required('name'));
  else if (name.length > MAX_NAME_LENGTH)
    violations.add('name', messages.maxString('name', MAX_NAME_LENGTH));
  else if (hasControlCharacters(name)) violations.add('name', controlCharactersMessage('name'));
}

/** Unknown scopes are named one by one (`scopes.2`), so a client sees which is wrong. */
export function checkScopes(scopes: string[], violations: Violations): string[] {
  scopes.forEach((scope, index) => {
    if (!isKnownScope(scope))
      violations.add(
        `scopes.${index}`,
        `The selected scopes.${index} is invalid: ${JSON.stringify(scope.slice(0, 100))} is not a known scope.`,
      );
  });
  return [...new Set(scopes)];
}

export function checkAllowlist(ranges: string[], violations: Violations): string[] {
  if (ranges.length > MAX_ALLOWLIST_ENTRIES) {
    violations.add(
      'ip_allowlist',
      `The ip allowlist field must not have more than ${MAX_ALLOWLIST_ENTRIES} items.`,
    );
    return [];
  }
  const normalised: string[] = [];
  ranges.forEach((range, index) => {
    const cidr = normaliseCidr(range);
    if (!cidr)
      violations.add(
        `ip_allowlist.${index}`,
        `The ip_allowlist.${index} field must be a valid IPv4 or IPv6 CIDR range.`,
      );
    else normalised.push(cidr);
  });
  return [...new Set(normalised)];
}

export function checkRateLimit(limit: number | undefined, violations: Violations): void {
  if (limit === undefined) return;
  if (!Number.isInteger(limit) || limit < 1 || limit > PLATFORM_RATE_LIMIT_PER_MINUTE) {
    violations.add(
      'rate_limit_per_minute',
      messages.between('rate_limit_per_minute', 1, PLATFORM_RATE_LIMIT_PER_MINUTE),
    );
  }
}

export function checkExpiry(expiresAt: Date | undefined, now: Date, violations: Violations): void {
  if (expiresAt && !(expiresAt.getTime() > now.getTime()))
    violations.add('expires_at', messages.after('expires_at'));
}
