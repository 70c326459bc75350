import { notFound, validationFailed } from '@inventory/platform';
import { appliedKey, type AppliedUpdate } from '../store/applied-update.js';
import type { InstanceDocument } from '../store/instance.js';
import { normalizeNumber } from '../store/tracking-queries.js';
import type { TrackingDocument } from '../store/tracking.js';
import type { ApplyTrackingUpdateDeps, ApplyTrackingUpdateInput } from './apply-tracking-update.js';
import { applyProviderUpdate } from './apply-provider-update.js';
import { perItem, type BatchItem } from './batch-results.js';

export type BatchUpdate = Omit<ApplyTrackingUpdateInput, 'tenantId' | 'now'>;

/**
 * Many stored inbound webhooks of one tenant applied in one call (proto ApplyTrackingUpdates,
 * ADR 0226), each exactly as ApplyTrackingUpdate applies one: the answers already recorded are
 * read with one `$in`, each instance once, the rows with one `$in` per instance, the new answers
 * recorded with one insert. Each row still changes through the shared status machine with its
 * conditional write and its side effects; updates of one number go one after the other, in
 * order, so the second sees what the first wrote. Idempotent by webhook event id and generation
 * (ADR 0230), as the single call: a crash before the answers are recorded is recognised by the row's
 * `last_webhook_event_id` on the retry.
 */
export class ApplyTrackingUpdates {
  constructor(private readonly deps: ApplyTrackingUpdateDeps) {}

  async execute(
    tenantId: string,
    updates: BatchUpdate[],
    now = new Date(),
  ): Promise<Array<BatchItem<AppliedUpdate>>> {
    const keyOf = (update: BatchUpdate) => appliedKey(update.webhookEventId, update.generation);
    const known = await this.deps.appliedUpdates.findByIds(
      tenantId,
      updates.map(({ webhookEventId, generation }) => ({ webhookEventId, generation })),
    );
    const instanceIds = [...new Set(updates.map((update) => update.instanceId))];
    const instances = new Map(
      await Promise.all(
        instanceIds.map(
          async (id) =>
            [id, await this.deps.instances.findDirect(tenantId, id)] as [
              number,
              InstanceDocument | null,
            ],
        ),
      ),
    );
    const rowsByInstance = new Map(
      await Promise.all(
        instanceIds
          .filter((id) => instances.get(id))
          .map(
            async (id) =>
              [
                id,
                await this.deps.trackings.forNumbers(
                  tenantId,
                  id,
                  updates
                    .filter(
                      (update) => update.instanceId === id && update.update.tracking_number.trim(),
                    )
                    .map((update) => update.update.tracking_number),
                ),
              ] as const,
          ),
      ),
    );
    // One chain per row (instance and number): its updates in order, chains side by side.
    const chains = new Map<string, Promise<unknown>>();
    const fresh: AppliedUpdate[] = [];
    const answers = await perItem(updates, (update) => {
      const key = `${update.instanceId}:${normalizeNumber(update.update.tracking_number)}`;
      const run = (chains.get(key) ?? Promise.resolve())
        .catch(() => undefined)
        .then(async () => {
          if (!update.update.tracking_number.trim())
            throw validationFailed([
              { field: 'update.tracking_number', description: 'is required' },
            ]);
          const recorded = known.get(keyOf(update));
          if (recorded) return recorded as AppliedUpdate;
          const instance = instances.get(update.instanceId);
          if (!instance) throw notFound('Parcel-tracking instance not found.');
          const rows = rowsByInstance.get(update.instanceId)!;
          const number = normalizeNumber(update.update.tracking_number);
          const answer = await this.applyOne(instance, rows.get(number) ?? null, update, now);
          if (answer.next) rows.set(number, answer.next);
          fresh.push(answer.answer);
          // A second update of the same event (and generation) in this batch gets this answer,
          // as a retry would.
          known.set(keyOf(update), {
            ...answer.answer,
            generation: answer.answer.generation ?? 0,
            tenant_id: tenantId,
            created_at: now,
          });
          return answer.answer;
        });
      chains.set(key, run);
      return run;
    });
    const recorded = new Map(
      (await this.deps.appliedUpdates.recordMany(tenantId, fresh)).map((answer) => [
        appliedKey(answer.webhook_event_id, answer.generation),
        answer,
      ]),
    );
    return answers.map((item) =>
      'answer' in item
        ? {
            answer:
              recorded.get(appliedKey(item.answer.webhook_event_id, item.answer.generation)) ??
              item.answer,
          }
        : item,
    );
  }

  /** What ApplyTrackingUpdate does once it knows the instance and the row (and the row after). */
  private async applyOne(
    instance: InstanceDocument,
    row: TrackingDocument | null,
    { instanceId, webhookEventId, generation, update }: BatchUpdate,
    now: Date,
  ): Promise<{ answer: AppliedUpdate; next?: TrackingDocument }> {
    const base = {
      webhook_event_id: webhookEventId,
      generation: generation ?? 0,
      integration_instance_id: instanceId,
    };
    if (!row)
      return {
        answer: {
          ...base,
          outcome: 'unknown_number',
          status_from: '',
          status_to: '',
          tracking_id: 0,
        },
      };
    if (row.last_webhook_event_id === webhookEventId)
      return {
        answer: {
          ...base,
          outcome: 'applied',
          status_from: row.last_status_from ?? row.delivery_status,
          status_to: row.delivery_status,
          tracking_id: row.id,
        },
      };
    const result = await applyProviderUpdate(this.deps, instance, row, update, {
      now,
      webhookEventId,
    });
    return {
      answer: {
        ...base,
        outcome: result.outcome,
        status_from: result.status_from,
        status_to: result.status_to,
        tracking_id: row.id,
      },
      // The row as written (its revision moved with the write), for the next update of it.
      next:
        result.outcome === 'applied'
          ? ({ ...result.row, revision: (result.row.revision ?? 0) + 1 } as TrackingDocument)
          : result.row,
    };
  }
}
