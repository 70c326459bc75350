import type { Logger } from '@inventory/platform';
import type { RaiseExpiryAlerts } from '../use-cases/raise-expiry-alerts.js';

/**
 * Runs the expiry-alert pass every `intervalMs` on this replica (each pass after the last one
 * ended, so two never overlap here); other replicas run theirs, and the claim on the token keeps
 * every alert single (ADR 0118). Answers the stop, which waits for a pass in flight.
 */
export function startExpiryAlerts(
  alerts: RaiseExpiryAlerts,
  intervalMs: number,
  logger: Logger,
): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  const schedule = () => {
    if (!stopped) timer = setTimeout(run, intervalMs);
  };
  const run = () => {
    pass = alerts.execute().then(
      (raised) => {
        if (raised > 0) logger.info({ raised }, 'token expiry alerts raised');
      },
      (error: unknown) => logger.warn({ err: error }, 'token expiry alert pass failed'),
    );
    void pass.finally(schedule);
  };
  if (intervalMs > 0) schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await pass;
  };
}
