import type { QuotaAlertState } from '../store/instance.js';

export type QuotaAlertFiring = 'warning' | 'exhausted';

/**
 * The quota alert state machine (spec: "quota below threshold"). `armed` warns
 * once usage reaches the threshold and moves to `warned`; reaching 100 percent
 * from either raises the high-priority "exhausted" alert once. Usage that falls
 * back below the threshold (a bigger quota) re-arms, as does a new threshold
 * (UpdateInstance). A jump from below the threshold straight to 100 reaches both
 * levels at once and raises both alerts (the warning first), each once.
 */
export function nextQuotaAlert(
  state: QuotaAlertState,
  usage: { used: number; total: number },
  threshold: number,
): { state: QuotaAlertState; fire: QuotaAlertFiring[] } {
  const percent = usage.total > 0 ? (usage.used / usage.total) * 100 : 0;
  if (usage.total > 0 && percent >= 100)
    return state === 'exhausted'
      ? { state, fire: [] }
      : { state: 'exhausted', fire: state === 'armed' ? ['warning', 'exhausted'] : ['exhausted'] };
  if (percent >= threshold)
    return state === 'armed'
      ? { state: 'warned', fire: ['warning'] }
      : { state: 'warned', fire: [] };
  return { state: 'armed', fire: [] };
}
