import { failedPrecondition, notFound } from '@inventory/platform';
import type { WebhookEventDocument } from '../store/webhook-event.js';
import type { WebhookReprocessRepository } from '../store/webhook-reprocess-repository.js';

export const NOT_FOUND_MESSAGE = 'Webhook event not found.';

/**
 * Puts one failed or ignored row back to the processing job (ADR 0230): its stored update goes
 * through parcel-tracking's status machine again as the row's next generation, and the row gets
 * the new result. A processed row already changed its tracking row; a row refused at ingest has
 * nothing to apply; a row waiting for its result is already on its way.
 */
export class ReprocessWebhookEvent {
  constructor(
    private readonly deps: {
      rows: Pick<WebhookReprocessRepository, 'findInInstances' | 'reprocessOne'>;
      /** The processing job has a row due: it looks now. */
      wake: () => void;
    },
  ) {}

  async execute(
    tenantId: string,
    instanceIds: number[],
    id: number,
  ): Promise<WebhookEventDocument> {
    const row = await this.deps.rows.findInInstances(tenantId, instanceIds, id);
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    refuseUnlessReprocessable(row);
    const put = await this.deps.rows.reprocessOne(tenantId, row);
    if (!put) {
      // Changed since it was read: another reprocess (or the job) took it first.
      const now = await this.deps.rows.findInInstances(tenantId, instanceIds, id);
      if (!now) throw notFound(NOT_FOUND_MESSAGE);
      refuseUnlessReprocessable(now);
      throw pending();
    }
    this.deps.wake();
    return put;
  }
}

const pending = () =>
  failedPrecondition(
    'webhook_reprocess_pending',
    'The webhook event is waiting for its result; reprocess it once it has one.',
  );

function refuseUnlessReprocessable(row: WebhookEventDocument): void {
  if (row.state !== 'done' || row.result === null) throw pending();
  if (row.result === 'processed')
    throw failedPrecondition(
      'webhook_not_reprocessable',
      'The webhook event was processed; only failed or ignored webhook events can be reprocessed.',
    );
  if (!row.update)
    throw failedPrecondition(
      'webhook_not_reprocessable',
      'The webhook event has nothing to apply (its body was refused when it arrived).',
    );
}
