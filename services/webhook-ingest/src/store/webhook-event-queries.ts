import { escapeRegex, unleasedAt, type ScopedFilter } from '@inventory/platform';
import { summaryOf, type Outcome, type WebhookEventDocument } from './webhook-event.js';

/** The rows the job processes: not processed yet. */
export const TO_PROCESS = { state: 'received' as const };
/** The rows a claim may take at `now`: not processed yet, and no live lease on them. */
export const dueForClaim = (now: Date) => ({ ...TO_PROCESS, ...unleasedAt(now) });
/** Oldest first; the index `{state, lease_until, id}` holds the rows in this order. */
export const CLAIM_ORDER = { lease_until: 1, id: 1 } as const;

/** What a result writes over a leased row; `token` marks the batch that wrote it. */
export const resultFields = (
  outcome: Outcome,
  durationMs: number,
  token: string,
  updatedAt: Date,
): Partial<WebhookEventDocument> => ({
  ...outcome,
  summary: summaryOf(outcome.status_from, outcome.status_to),
  state: 'done',
  processing_duration_ms: durationMs,
  finish_token: token,
  updated_at: updatedAt,
});

/**
 * What a row stored after its push had been answered 503 becomes (ADR 0743): shown as ignored,
 * its dedupe key given up so the provider's retry is the one processed.
 */
export const unacknowledgedFields = (id: number): Partial<WebhookEventDocument> => ({
  dedupe_key: `late:${id}`,
  state: 'done',
  result: 'ignored',
  error_message:
    'Stored after the push had been answered 503 (the database did not answer in time); not applied: the provider sends it again.',
  lease_owner: null,
  updated_at: new Date(),
});

/** What the log endpoint asks of the finished rows of some instances. */
export interface ListQuery {
  eventTypes: string[];
  results: string[];
  trackingNumber: string;
  /** The whole number, not a substring (one shipment's webhooks). */
  trackingNumberExact?: boolean;
  receivedFrom?: Date;
  receivedTo?: Date;
  sort: Array<{ field: string; descending: boolean }>;
  page: number;
  perPage: number;
}

/**
 * The log's filter: the instances' rows with a result that match the query's filters. A row being
 * reprocessed keeps its last result until the new one is written (ADR 0230), so it stays listed.
 */
export function logFilter(
  instanceIds: number[],
  query: Omit<ListQuery, 'sort' | 'page' | 'perPage'>,
): ScopedFilter<WebhookEventDocument> {
  const filter: ScopedFilter<WebhookEventDocument> = {
    integration_instance_id: instanceIds.length === 1 ? instanceIds[0]! : { $in: instanceIds },
    result: { $ne: null },
  };
  if (query.eventTypes.length > 0) filter.event_type = { $in: query.eventTypes };
  if (query.results.length > 0) filter.result = { $in: query.results };
  if (query.trackingNumber) {
    const literal = escapeRegex(query.trackingNumber);
    filter.tracking_number = {
      $regex: query.trackingNumberExact ? `^${literal}$` : literal,
      $options: 'i',
    };
  }
  if (query.receivedFrom || query.receivedTo)
    filter.received_at = {
      ...(query.receivedFrom ? { $gte: query.receivedFrom } : {}),
      ...(query.receivedTo ? { $lte: query.receivedTo } : {}),
    };
  return filter;
}

/** Results a reprocess takes: a processed row changed its tracking row already. */
export const REPROCESSABLE_RESULTS = ['failed', 'ignored'] as const;

/**
 * The rows of the log's filter a reprocess takes (ADR 0230): finished, failed or ignored, with an
 * update to apply (a body refused at ingest has none).
 */
export function reprocessFilter(
  instanceIds: number[],
  query: Omit<ListQuery, 'sort' | 'page' | 'perPage'>,
): ScopedFilter<WebhookEventDocument> {
  const results = query.results.filter((result) =>
    (REPROCESSABLE_RESULTS as readonly string[]).includes(result),
  );
  return {
    ...logFilter(instanceIds, query),
    state: 'done',
    result: {
      $in: results.length > 0 || query.results.length > 0 ? results : [...REPROCESSABLE_RESULTS],
    },
    update: { $ne: null },
  };
}

/**
 * What a finished row becomes when put back to the processing job (ADR 0230): due now, the next
 * generation, its own attempts counted from here; its last result stays shown until the new one.
 */
export const reprocessFields = (
  row: Pick<WebhookEventDocument, 'attempts' | 'generation'>,
  job: string | null,
  now: Date,
): Partial<WebhookEventDocument> => ({
  state: 'received',
  generation: (row.generation ?? 0) + 1,
  attempts_base: row.attempts,
  reprocess_job: job,
  lease_owner: null,
  // Due now, behind the rows already waiting (the claim's order is lease_until, then id).
  lease_until: now,
  updated_at: now,
});

/** The log's order: the query's keys, then `id` in the direction of the last one (newest first by default). */
export function logSort(query: ListQuery): Record<string, 1 | -1> {
  const sort: Record<string, 1 | -1> = {};
  for (const key of query.sort) sort[key.field] = key.descending ? -1 : 1;
  const last = query.sort[query.sort.length - 1];
  sort.id ??= last?.descending === false ? 1 : -1;
  return sort;
}

/**
 * The rows that show the instance is receiving webhooks: a forged push (bad signature) is no sign
 * of life from the provider, so it is passed over.
 */
export const signsOfLife = (instanceId: number): ScopedFilter<WebhookEventDocument> => ({
  integration_instance_id: instanceId,
  signature_state: { $ne: 'invalid' },
});
