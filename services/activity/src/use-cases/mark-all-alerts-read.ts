import type { AlertReader } from '../domain/alert.js';
import type { AlertRepository } from '../store/alert-repository.js';

/** Marks every unread alert the reader sees read; returns how many changed. */
export class MarkAllAlertsRead {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  execute(tenantId: string, reader: AlertReader): Promise<number> {
    return this.alerts.markAllRead(tenantId, reader, this.now());
  }
}
