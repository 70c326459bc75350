import { notFound, validationFailed, type Outbox } from '@inventory/platform';
import type { ProviderUpdate } from '../domain/tracking-update.js';
import type { AppliedUpdate } from '../store/applied-update.js';
import type { AppliedUpdateRepository } from '../store/applied-update-repository.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { applyProviderUpdate } from './apply-provider-update.js';

export interface ApplyTrackingUpdateInput {
  tenantId: string;
  instanceId: number;
  webhookEventId: number;
  /** Which processing of the event (0 the first; a reprocess counts up, ADR 0230). */
  generation?: number;
  update: ProviderUpdate & { tracking_number: string };
  now?: Date;
}

/** What applying a stored webhook's update needs, one at a time or many in one call. */
export interface ApplyTrackingUpdateDeps {
  instances: InstanceRepository;
  trackings: TrackingRepository;
  checkpoints: CheckpointRepository;
  appliedUpdates: AppliedUpdateRepository;
  outbox: Outbox;
}

/**
 * One stored inbound webhook applied to its row (proto ApplyTrackingUpdate).
 * Idempotent by webhook event id and generation (a reprocess is evaluated
 * again, ADR 0230): the first answer is stored and repeated; a
 * crash after the row changed but before the answer was stored is recognised
 * by the row's `last_webhook_event_id`, so the retry answers `applied` again.
 */
export class ApplyTrackingUpdate {
  constructor(private readonly deps: ApplyTrackingUpdateDeps) {}

  async execute(input: ApplyTrackingUpdateInput): Promise<AppliedUpdate> {
    const { instances, trackings, appliedUpdates } = this.deps;
    const { tenantId, instanceId, webhookEventId, update } = input;
    const generation = input.generation ?? 0;
    if (!update.tracking_number.trim())
      throw validationFailed([{ field: 'update.tracking_number', description: 'is required' }]);
    const known = await appliedUpdates.find(tenantId, webhookEventId, generation);
    if (known) return known;
    const instance = await instances.find(tenantId, instanceId);
    if (!instance) throw notFound('Parcel-tracking instance not found.');

    const base = {
      webhook_event_id: webhookEventId,
      generation,
      integration_instance_id: instanceId,
    };
    const row = await trackings.forNumber(tenantId, instanceId, update.tracking_number);
    if (!row)
      return appliedUpdates.record(tenantId, {
        ...base,
        outcome: 'unknown_number',
        status_from: '',
        status_to: '',
        tracking_id: 0,
      });
    if (row.last_webhook_event_id === webhookEventId)
      return appliedUpdates.record(tenantId, {
        ...base,
        outcome: 'applied',
        status_from: row.last_status_from ?? row.delivery_status,
        status_to: row.delivery_status,
        tracking_id: row.id,
      });
    const result = await applyProviderUpdate(this.deps, instance, row, update, {
      now: input.now ?? new Date(),
      webhookEventId,
    });
    return appliedUpdates.record(tenantId, {
      ...base,
      outcome: result.outcome,
      status_from: result.status_from,
      status_to: result.status_to,
      tracking_id: row.id,
    });
  }
}
