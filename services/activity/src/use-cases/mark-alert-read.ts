import { notFound } from '@inventory/platform';
import type { AlertReader } from '../domain/alert.js';
import type { AlertDocument } from '../store/alert.js';
import type { AlertRepository } from '../store/alert-repository.js';

/** Marks one alert the reader sees read; an alert already read keeps its first read_at. */
export class MarkAlertRead {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async execute(tenantId: string, reader: AlertReader, id: number): Promise<AlertDocument> {
    // Ids outside the counter's range cannot exist; answering 404 keeps them away from the store.
    const row =
      Number.isSafeInteger(id) && id > 0
        ? await this.alerts.markRead(tenantId, reader, id, this.now())
        : null;
    if (!row) throw notFound('Alert not found.');
    return row;
  }
}
