import type { TokenPolicy } from './token-policy.js';

const DAY_MS = 86_400_000;

/** How long before an unused token is expired its owner is warned (ADR 0122). */
export const IDLE_WARNING_MS = 7 * DAY_MS;

/** The warning a token was given: about which idle period (its last activity), and when. */
export interface IdleWarning {
  since: Date;
  at: Date;
}

export interface IdleTokenState {
  last_used_at: Date | null;
  created_at: Date;
  idle_warning?: IdleWarning | null;
}

export type IdleStep = { kind: 'warn'; expiresAt: Date } | { kind: 'expire' } | undefined;

/** Since when a token has gone unused: its last use, or its creation when never used. */
export const lastActivity = (token: IdleTokenState): Date => token.last_used_at ?? token.created_at;

/**
 * What the idle-token pass does with a token now, under a policy that expires unused ones: warn
 * its owner once it has been unused for the policy's days less 7 (the warning names the day it
 * will expire), and expire it once it has been unused for the whole period and its warning is at
 * least 7 days old. A use after the warning starts a new idle period: the old warning no longer
 * matches, so nothing is expired on it.
 */
export function idleStep(policy: TokenPolicy, token: IdleTokenState, now: Date): IdleStep {
  if (!policy.expire_unused || policy.flag_unused_after_days === null) return undefined;
  const since = lastActivity(token).getTime();
  const allowed = policy.flag_unused_after_days * DAY_MS;
  if (now.getTime() - since < allowed - IDLE_WARNING_MS) return undefined;
  const warning = token.idle_warning;
  if (!warning || warning.since.getTime() !== since)
    return {
      kind: 'warn',
      expiresAt: new Date(Math.max(since + allowed, now.getTime() + IDLE_WARNING_MS)),
    };
  const due = Math.max(since + allowed, warning.at.getTime() + IDLE_WARNING_MS);
  return now.getTime() >= due ? { kind: 'expire' } : undefined;
}

/** The latest last activity that makes a token due for its warning now (the pass's cut-off). */
export function idleWarningFrom(policy: TokenPolicy, now: Date): Date {
  const allowed = (policy.flag_unused_after_days ?? 0) * DAY_MS;
  return new Date(now.getTime() - Math.max(0, allowed - IDLE_WARNING_MS));
}
