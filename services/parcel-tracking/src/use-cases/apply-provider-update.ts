import {
  decideUpdate,
  type ProviderUpdate,
  type UpdateDecision,
} from '../domain/tracking-update.js';
import type { Outbox } from '@inventory/platform';
import { keepableCheckpoints } from '../domain/checkpoints.js';
import { changesTransit } from '../domain/transit.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { InstanceDocument } from '../store/instance.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';
import { deliveryEffects } from './delivery-effects.js';

export interface AppliedResult extends Omit<UpdateDecision, 'changes'> {
  row: TrackingDocument;
}

/**
 * Applies one provider update to a row through the shared status machine, for
 * webhooks and polling alike. The write is conditional on the row being as it
 * was read (a concurrent writer makes this one re-read and decide again), and
 * the delivery side effects go through the outbox in the same step, guarded by
 * the row's `delivery_effects_at`. The update's checkpoints are kept first, whatever the status
 * machine decides (a stale or repeated push still reports facts, ADR 0216), so a retry after a
 * crash finds them kept.
 */
export async function applyProviderUpdate(
  deps: { trackings: TrackingRepository; checkpoints: CheckpointRepository; outbox: Outbox },
  instance: Pick<InstanceDocument, 'side_effects'>,
  first: TrackingDocument,
  update: ProviderUpdate,
  options: { now: Date; webhookEventId?: number; extra?: Record<string, unknown> },
): Promise<AppliedResult> {
  const { trackings, checkpoints, outbox } = deps;
  if (update.checkpoints?.length)
    await checkpoints.merge(
      first.tenant_id,
      first.id,
      keepableCheckpoints(update.checkpoints),
      options.now,
    );
  let row = first;
  for (let attempt = 0; attempt < 10; attempt++) {
    const decision = decideUpdate(row, update, options.now);
    const { changes: decided, ...answer } = decision;
    if (decision.outcome !== 'applied' && !options.extra) return { ...answer, row };
    const changes: Record<string, unknown> = {
      ...(decision.outcome === 'applied' ? decided : {}),
      ...options.extra,
    };
    if (decision.outcome === 'applied' && options.webhookEventId !== undefined) {
      changes.last_webhook_event_id = options.webhookEventId;
      changes.last_status_from = decision.status_from;
    }
    if (changes.stopped_at) changes.active = false;
    // The instance's kept transit sums redo the row's delivery day (ADR 0239).
    if (changesTransit(row, changes)) changes.transit_changed_at = options.now;
    const fireEffects = decision.became_delivered && !row.delivery_effects_at;
    if (fireEffects) changes.delivery_effects_at = options.now;
    const entries = fireEffects
      ? deliveryEffects(
          row.tenant_id,
          instance.side_effects,
          row,
          (changes.delivered_at as Date) ?? options.now,
        )
      : [];
    const written = await outbox
      .withEvents(entries, async () => {
        const ok = await trackings.applyIfUnchanged(
          row.tenant_id,
          row.id,
          row.revision ?? 0,
          changes,
          options.now,
        );
        // Throwing drops the outbox entries written for this attempt.
        if (!ok && entries.length > 0) throw new RowChanged();
        return ok;
      })
      .catch((error: unknown) => {
        if (error instanceof RowChanged) return false;
        throw error;
      });
    if (written) return { ...answer, row: { ...row, ...changes } as TrackingDocument };
    const fresh = await trackings.byId(row.tenant_id, row.id);
    if (!fresh) return { ...answer, outcome: 'unknown_number', row };
    row = fresh;
  }
  throw new Error(`tracking row ${first.id} kept changing under the update`);
}

class RowChanged extends Error {}
