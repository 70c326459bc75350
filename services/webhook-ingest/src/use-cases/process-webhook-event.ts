import { status } from '@grpc/grpc-js';
import {
  TrackingUpdateOutcome,
  type ApplyTrackingUpdateResponse,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { describeCallError, type Logger } from '@inventory/platform';
import type { ParcelTracking } from '../clients/parcel-tracking.js';
import { webhookActivity } from '../domain/webhook-activity.js';
import type { WebhookEventRepository } from '../store/webhook-event-repository.js';
import type { Outcome, WebhookEventDocument } from '../store/webhook-event.js';
import type { FinishQueue } from '../workers/finish-queue.js';

/** Why an ignored row changed nothing (kept in its error_message). ADR 0221. */
export const IGNORED_REASONS: Partial<Record<TrackingUpdateOutcome, string>> = {
  [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_UNKNOWN_NUMBER]:
    'The tracking number is not tracked by this instance.',
  [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STOPPED]: 'The tracking row is stopped.',
  [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_DUPLICATE]:
    'The event repeats the one the tracking row already holds.',
  [TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE]:
    'The event is older than the one the tracking row holds; a row never moves backwards.',
};
export const INSTANCE_GONE = 'The integration instance no longer exists (disconnected).';

/** Refusals that no retry can change. */
const PERMANENT = new Set<number>([
  status.INVALID_ARGUMENT,
  status.FAILED_PRECONDITION,
  status.OUT_OF_RANGE,
  status.PERMISSION_DENIED,
]);

const text = (value: string) => (value === '' ? null : value);

export function outcomeOf(answer: ApplyTrackingUpdateResponse): Outcome {
  const statuses = { status_from: text(answer.status_from), status_to: text(answer.status_to) };
  if (answer.outcome === TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED)
    return { result: 'processed', ...statuses, error_message: null };
  const reason = IGNORED_REASONS[answer.outcome];
  if (reason) return { result: 'ignored', ...statuses, error_message: reason };
  return {
    result: 'failed',
    ...statuses,
    error_message: `parcel-tracking answered an unknown outcome (${answer.outcome}).`,
  };
}

export interface ProcessingPolicy {
  maxAttempts: number;
  retryBaseMs: number;
}

/**
 * Processes one claimed row: parcel-tracking applies the update (idempotent by
 * the row id, so a retry after a crash gets the first answer), then the row gets
 * its one result and its activity entry in one outbox step. A failure that may
 * pass gives the row back with a back-off; after `maxAttempts` claims it fails.
 */
export class ProcessWebhookEvent {
  constructor(
    private readonly deps: {
      inbox: WebhookEventRepository;
      parcelTracking: Pick<ParcelTracking, 'applyUpdate'>;
      /** Writes a result with its activity entries (batched with others in flight). */
      finishes: Pick<FinishQueue, 'add'>;
      logger: Logger;
      policy: ProcessingPolicy;
    },
  ) {}

  async execute(row: WebhookEventDocument, owner: string): Promise<Outcome | 'retry' | 'lost'> {
    const { inbox, policy, logger } = this.deps;
    const started = Date.now();
    // The claims of this processing: a reprocess counts its own from where the last one ended.
    const attempts = row.attempts - (row.attempts_base ?? 0);
    let outcome: Outcome;
    try {
      if (!row.update) throw new Error('The row has nothing to apply.');
      outcome = outcomeOf(
        await this.deps.parcelTracking.applyUpdate(
          row.tenant_id,
          row.integration_instance_id,
          row.id,
          row.update,
          row.generation ?? 0,
        ),
      );
    } catch (error) {
      const call = describeCallError(error);
      const message = call.code === undefined ? (error as Error).message : call.message;
      if (call.code === status.NOT_FOUND)
        outcome = {
          result: 'ignored',
          status_from: null,
          status_to: null,
          error_message: INSTANCE_GONE,
        };
      else if (
        (call.code !== undefined && PERMANENT.has(call.code)) ||
        attempts >= policy.maxAttempts
      )
        outcome = {
          result: 'failed',
          status_from: null,
          status_to: null,
          error_message:
            attempts >= policy.maxAttempts
              ? `Could not be applied after ${attempts} attempts: ${message}`
              : `Could not be applied: ${message}`,
        };
      else {
        const delay = policy.retryBaseMs * 2 ** Math.min(attempts - 1, 10);
        logger.warn(
          { webhook_event_id: row.id, attempt: row.attempts, err: error },
          'webhook apply failed; will retry',
        );
        await inbox.release(row, owner, new Date(Date.now() + delay), message);
        return 'retry';
      }
    }
    const entries = webhookActivity({ ...row, ...outcome }, row.attempts, new Date());
    const written = await this.deps.finishes.add({
      owner,
      row,
      outcome,
      durationMs: Date.now() - started,
      entries,
    });
    if (!written) {
      logger.warn(
        { webhook_event_id: row.id },
        'lease lost before the result was written; the owner finishes it',
      );
      return 'lost';
    }
    return outcome;
  }
}
