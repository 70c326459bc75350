import type { QuotaAlertState } from '../store/instance-store.js';

export type QuotaAlertFiring = 'warning' | 'exhausted';

/**
 * The quota alert state machine (spec: "quota below threshold"). `armed` warns
 * once usage reaches the threshold and moves to `warned`; reaching 100 percent
 * from either raises the high-priority "exhausted" alert once. Usage that falls
 * back below the threshold (a bigger quota) re-arms, as does a new threshold
 * (UpdateInstance). A jump straight to 100 raises only the exhausted alert.
 */
export function nextQuotaAlert(
  state: QuotaAlertState,
  usage: { used: number; total: number },
  threshold: number,
): { state: QuotaAlertState; fire: QuotaAlertFiring | null } {
  const percent = usage.total > 0 ? (usage.used / usage.total) * 100 : 0;
  if (usage.total > 0 && percent >= 100)
    return state === 'exhausted'
      ? { state, fire: null }
      : { state: 'exhausted', fire: 'exhausted' };
  if (percent >= threshold)
    return state === 'armed'
      ? { state: 'warned', fire: 'warning' }
      : { state: 'warned', fire: null };
  return { state: 'armed', fire: null };
}
