import type { AlertRepository } from '../store/alert-repository.js';

/** Marks every unread alert of the tenant read; returns how many changed. */
export class MarkAllAlertsRead {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  execute(tenantId: string): Promise<number> {
    return this.alerts.markAllRead(tenantId, this.now());
  }
}
