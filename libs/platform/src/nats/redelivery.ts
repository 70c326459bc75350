/**
 * How a consumer retries an event its handler failed (ADR 0740): JetStream redelivers it without
 * a limit, each time after a longer wait, so a dependency that is slow or down for minutes
 * (Redis frozen, MongoDB failing over) delays events but never drops one. An event that keeps
 * failing is logged as an error from its tenth delivery on and counted
 * (`events_consumed_total{outcome="failed"}`), for an operator to look at; an undecodable one
 * is terminated at once, since no retry can help it.
 */
export const UNLIMITED_DELIVERIES = -1;

export interface RetryBackoff {
  /** The wait before the first redelivery; each one after doubles it. */
  baseMs: number;
  /** The longest wait between two deliveries. */
  maxMs: number;
}

export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { baseMs: 1_000, maxMs: 60_000 };

/** From this delivery on, a failure is logged as an error rather than a warning. */
export const STUCK_AFTER_DELIVERIES = 10;

/**
 * The wait before redelivering an event that has been delivered `deliveries` times. A setting
 * left undefined takes its default: consumers pass their options through as they are, and a
 * spread would let an undefined one through as NaN, which `nak` takes as no delay at all.
 */
export function redeliveryDelayMs(deliveries: number, backoff: Partial<RetryBackoff> = {}): number {
  const baseMs = backoff.baseMs ?? DEFAULT_RETRY_BACKOFF.baseMs;
  const maxMs = backoff.maxMs ?? DEFAULT_RETRY_BACKOFF.maxMs;
  return Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, deliveries - 1)));
}
