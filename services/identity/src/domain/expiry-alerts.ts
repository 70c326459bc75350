/** When a token's owner is alerted about its expiry (ADR 0118), most urgent first. */
export type ExpiryStage = 'expired' | '1d' | '7d';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How far ahead the alerts look: the earliest warning. */
export const EXPIRY_WARNING_AHEAD_MS = 7 * DAY_MS;
/**
 * How long after its expiry a token still gets its `expired` alert: a service that was down at
 * the moment catches up, but a token that expired long before is not announced now.
 */
export const EXPIRED_ALERT_LOOKBACK_MS = 7 * DAY_MS;

/** The stage a token with this expiry is in now: only the most urgent one is raised. */
export function expiryStage(expiresAt: Date, now: Date): ExpiryStage | undefined {
  const left = expiresAt.getTime() - now.getTime();
  if (left <= 0) return left > -EXPIRED_ALERT_LOOKBACK_MS ? 'expired' : undefined;
  if (left <= DAY_MS) return '1d';
  if (left <= EXPIRY_WARNING_AHEAD_MS) return '7d';
  return undefined;
}

/** The mark a raised stage leaves on the token, and the alert's dedupe key: one per expiry. */
export function expiryMark(stage: ExpiryStage, expiresAt: Date): string {
  return `${stage}@${expiresAt.getTime()}`;
}
