import { isKnownScope } from '@inventory/access';
import type { Violations } from './validation.js';

/** What a tenant allows its users' personal access tokens (ADR 0120). */
export interface TokenPolicy {
  /** No token may expire later than this many days after it is made or regenerated. */
  max_lifetime_days: number | null;
  /** Whether a token may never expire; never true while `max_lifetime_days` is set. */
  allow_no_expiry: boolean;
  /** The scopes a member (not an owner) may grant; null: any scope. */
  member_scopes: string[] | null;
  require_ip_allowlist: boolean;
  /** Tokens not used for longer than this are flagged `unused` (a review, not a refusal). */
  flag_unused_after_days: number | null;
  /** Tokens unused for `flag_unused_after_days` are expired, their owner warned first (ADR 0122). */
  expire_unused: boolean;
}

/** A tenant that never set a policy: the specification's rules alone. */
export const OPEN_POLICY: TokenPolicy = {
  max_lifetime_days: null,
  allow_no_expiry: true,
  member_scopes: null,
  require_ip_allowlist: false,
  flag_unused_after_days: null,
  expire_unused: false,
};

export const MAX_UNUSED_DAYS = 365;

/**
 * Whether a token has gone unused for longer than the policy allows: since its last use, or
 * since it was made when it never was. A flag for review, never a refusal.
 */
export function isUnused(
  policy: TokenPolicy,
  token: { last_used_at: Date | null; created_at: Date },
  now: Date,
): boolean {
  if (policy.flag_unused_after_days === null) return false;
  const since = (token.last_used_at ?? token.created_at).getTime();
  return now.getTime() - since > policy.flag_unused_after_days * DAY_MS;
}

export const MAX_POLICY_LIFETIME_DAYS = 3650;
const DAY_MS = 86_400_000;

export type PolicyRule = 'max_lifetime' | 'no_expiry' | 'member_scopes' | 'ip_allowlist' | 'unused';

/** What a token is judged on: its settings after the change, and who holds it. */
export interface TokenUnderPolicy {
  expires_at: Date | null;
  scopes: string[];
  ip_allowlist: string[];
  holderIsOwner: boolean;
}

export interface PolicyBreach {
  rule: PolicyRule;
  field: 'expires_at' | 'scopes' | 'ip_allowlist';
  message: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The rules of `policy` a token breaks, judged at `now`: an expiry further away than the
 * policy's lifetime (from now: the day it is made, regenerated or looked at), no expiry where
 * one is required, a scope members may not grant in a member's token, no allowlist where one is
 * required. Each message names the rule, as a person would read it.
 */
export function policyBreaches(
  policy: TokenPolicy,
  token: TokenUnderPolicy,
  now: Date,
): PolicyBreach[] {
  const breaches: PolicyBreach[] = [];
  if (token.expires_at === null) {
    if (!policy.allow_no_expiry || policy.max_lifetime_days !== null)
      breaches.push({
        rule: 'no_expiry',
        field: 'expires_at',
        message:
          policy.max_lifetime_days !== null
            ? `Your organisation's token policy requires an expiry, at most ${policy.max_lifetime_days} days away.`
            : "Your organisation's token policy requires an expiry: tokens may not live for ever.",
      });
  } else if (policy.max_lifetime_days !== null) {
    const latest = new Date(now.getTime() + policy.max_lifetime_days * DAY_MS);
    if (token.expires_at.getTime() > latest.getTime())
      breaches.push({
        rule: 'max_lifetime',
        field: 'expires_at',
        message: `Your organisation's token policy allows at most ${policy.max_lifetime_days} days: choose an expiry on or before ${day(latest)}.`,
      });
  }
  if (policy.member_scopes !== null && !token.holderIsOwner) {
    const allowed = new Set(policy.member_scopes);
    const refused = token.scopes.filter((scope) => !allowed.has(scope));
    if (refused.length > 0)
      breaches.push({
        rule: 'member_scopes',
        field: 'scopes',
        message: `Your organisation's token policy does not let members grant ${refused.join(', ')}.`,
      });
  }
  if (policy.require_ip_allowlist && token.ip_allowlist.length === 0)
    breaches.push({
      rule: 'ip_allowlist',
      field: 'ip_allowlist',
      message: "Your organisation's token policy requires an IP allowlist.",
    });
  return breaches;
}

/** The policy as given, checked: a lifetime in bounds, known scopes, no contradiction. */
export function checkPolicy(policy: TokenPolicy, violations: Violations): TokenPolicy {
  const { max_lifetime_days: days } = policy;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > MAX_POLICY_LIFETIME_DAYS))
    violations.add(
      'max_lifetime_days',
      `The max lifetime days field must be between 1 and ${MAX_POLICY_LIFETIME_DAYS}.`,
    );
  if (days !== null && policy.allow_no_expiry)
    violations.add(
      'allow_no_expiry',
      'A token cannot be allowed to never expire while the policy sets a maximum lifetime.',
    );
  const unused = policy.flag_unused_after_days;
  if (unused !== null && (!Number.isInteger(unused) || unused < 1 || unused > MAX_UNUSED_DAYS))
    violations.add(
      'flag_unused_after_days',
      `The flag unused after days field must be between 1 and ${MAX_UNUSED_DAYS}.`,
    );
  if (policy.expire_unused && unused === null)
    violations.add(
      'expire_unused',
      'Choose after how many days a token counts as unused (flag_unused_after_days) to expire unused tokens.',
    );
  policy.member_scopes?.forEach((scope, index) => {
    if (!isKnownScope(scope))
      violations.add(
        `member_scopes.${index}`,
        `The selected member_scopes.${index} is invalid: ${JSON.stringify(scope.slice(0, 100))} is not a known scope.`,
      );
  });
  return {
    ...policy,
    member_scopes: policy.member_scopes === null ? null : [...new Set(policy.member_scopes)],
  };
}
