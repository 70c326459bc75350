import type { Logger } from 'pino';

/**
 * The log of a dependency that can stay down for a while (Redis, say) while its callers retry
 * often: one warning at the first failure and then at most one per `intervalMs`, each saying how
 * long it has been down, and one line when it is back.
 */
export class OutageLog {
  private since: number | undefined;
  private lastWarning = 0;

  constructor(
    private readonly logger: Pick<Logger, 'warn' | 'info'> | undefined,
    private readonly intervalMs = 10_000,
  ) {}

  failed(error: unknown, message: string): void {
    const now = Date.now();
    this.since ??= now;
    if (now - this.lastWarning < this.intervalMs) return;
    this.lastWarning = now;
    this.logger?.warn({ err: error, failing_for_ms: now - this.since }, message);
  }

  /** Says the dependency is back, once per outage; nothing when there was none. */
  recovered(message: string): void {
    if (this.since === undefined) return;
    this.logger?.info({ outage_ms: Date.now() - this.since }, message);
    this.since = undefined;
    this.lastWarning = 0;
  }
}
