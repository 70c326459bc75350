/** What one HTTP attempt produced. */
export interface AttemptResult {
  responseStatus?: number;
  error?: string;
}

export type NextStep =
  | { kind: 'succeeded' }
  /** HTTP 410: the receiver says the endpoint is gone; the subscription is switched off. */
  | { kind: 'gone' }
  | { kind: 'retry'; afterMs: number }
  | { kind: 'failed' };

/**
 * The delivery rules (spec: Events → Delivery rules 1 and 3): any 2xx succeeds, 410 ends the
 * delivery and the subscription, anything else (3xx included: redirects are never followed)
 * is retried after the configured wait until the attempts are spent.
 */
export function nextStep(
  result: AttemptResult,
  attemptsMadeInCycle: number,
  maxAttempts: number,
  retryDelaysMs: readonly number[],
): NextStep {
  const status = result.responseStatus;
  if (status !== undefined && status >= 200 && status < 300) return { kind: 'succeeded' };
  if (status === 410) return { kind: 'gone' };
  if (attemptsMadeInCycle >= maxAttempts) return { kind: 'failed' };
  return { kind: 'retry', afterMs: retryDelaysMs[attemptsMadeInCycle - 1] ?? 0 };
}
