import { randomUUID } from 'node:crypto';
import type { PipelineStage } from 'mongoose';
import { isDuplicateKeyError, type ClaimRequest, type ScopedFilter } from '@inventory/platform';
import {
  EPOCH,
  type AttemptRecord,
  type DeliveryDocument,
  type DeliveryFilter,
  type Settle,
} from './delivery.js';

/**
 * Most keys in one `$in` on the dedupe index: simply a batch size. A `$in` of any length is
 * served from the index by MongoDB and, since ADR 0611, by the embedded server too (which
 * scanned the whole collection past 64 points before).
 */
const IN_LIST_CHUNK = 64;

/** The keys in `$in` lists of at most `IN_LIST_CHUNK`. */
export function inListChunks(keys: string[]): string[][] {
  const chunks: string[][] = [];
  for (let at = 0; at < keys.length; at += IN_LIST_CHUNK)
    chunks.push(keys.slice(at, at + IN_LIST_CHUNK));
  return chunks;
}

/** The indexes that failed in an unordered insert when every failure is a duplicate key. */
export function duplicateOnlyFailures(error: unknown): Set<number> | undefined {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = (
    Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []
  ) as Array<{ index?: unknown; code?: unknown; err?: { index?: unknown } }>;
  if (list.length === 0 || !list.every((entry) => isDuplicateKeyError(entry))) return undefined;
  const indexes = list.map((entry) => entry.index ?? entry.err?.index);
  if (!indexes.every((index) => typeof index === 'number')) return undefined;
  return new Set(indexes as number[]);
}

/** A claim of the schedule's due deliveries, of every tenant: pending and due, oldest first. */
export function dueClaim(
  now: Date,
  limit: number,
  owner = '',
  leaseMs = 0,
): ClaimRequest<DeliveryDocument> {
  return {
    scope: 'acrossTenants',
    due: { status: 'pending', next_attempt_at: { $lte: now } },
    order: { next_attempt_at: 1 },
    owner,
    leaseMs,
    limit,
    now,
  };
}

/**
 * A new cycle of attempts, due `now` and free to claim; `admitted` when its cap slot is already
 * taken (a recover's), else it passes the cap again.
 */
export const newCycle = (now: Date, admitted: boolean): Partial<DeliveryDocument> => ({
  status: 'pending',
  cycle_attempts: 0,
  admitted,
  next_attempt_at: now,
  lease_until: EPOCH,
  updated_at: now,
});

/** A settle's update: the new state with the lease freed, and the attempt if one was made. */
export const settled = (
  changes: Settle['changes'],
  attempt: AttemptRecord | undefined,
  at: Date,
) => ({
  $set: { ...changes, lease_owner: null, lease_until: EPOCH, updated_at: at },
  ...(attempt ? { $push: { attempts: attempt } } : {}),
});

/** A resume's order over a subscription's held deliveries: oldest event first (ADR 0412). */
export const HELD_ORDER = { occurred_at: 1, created_at: 1, delivery_id: 1 } as const;

/** A held delivery released by a resume: pending, due now, leased to `owner` (a fresh token). */
export const releasedHeld = (
  owner: string,
  leaseMs: number,
  now: Date,
): Partial<DeliveryDocument> => ({
  status: 'pending',
  next_attempt_at: now,
  lease_owner: owner,
  lease_until: new Date(now.getTime() + leaseMs),
  lease_token: randomUUID(),
  updated_at: now,
});

/** Counts of the matched deliveries by one of their fields (`_id` the value, `n` the count). */
export const countBy = (field: string): PipelineStage[] => [
  { $group: { _id: field, n: { $sum: 1 } } },
];

/** A subscription's deliveries as the list filters them. */
export const listFilter = (
  subscriptionId: number,
  filter: DeliveryFilter,
): ScopedFilter<DeliveryDocument> => ({
  subscription_id: subscriptionId,
  ...(filter.status ? { status: filter.status } : {}),
  ...(filter.event ? { event: filter.event } : {}),
});

/** Newest first; the delivery id orders deliveries created in the same millisecond. */
export const LIST_ORDER = { created_at: -1, delivery_id: 1 } as const;

/** The last failed attempt of a window (ADR 0417). */
export interface HealthFailureRow {
  attempted_at: Date;
  response_status: number | null;
  error: string | null;
  delivery_id: string;
}

/** One window's figures from the attempt log (ADR 0417). */
export interface HealthWindowRow {
  attempts: number;
  succeeded: number;
  /** succeeded / attempts; null when no attempt was made. */
  success_rate: number | null;
  /** Nearest-rank p95 of the response times of attempts that got a response; null when none. */
  p95_latency_ms: number | null;
  last_failure: HealthFailureRow | null;
}

/** Attempts whose latency counts: the ones a response came back to. */
const RESPONDED = { 'attempts.response_status': { $ne: null } };

/** A 2xx response is a success, as the worker settles it (domain/attempt-outcome). */
const isSucceeded = {
  $and: [{ $gte: ['$attempts.response_status', 200] }, { $lt: ['$attempts.response_status', 300] }],
};

/** Counts of the attempts made since `since`: all, 2xx, answered (one `$facet` branch). */
function windowFacet(since: Date): PipelineStage.FacetPipelineStage[] {
  return [
    { $match: { 'attempts.attempted_at': { $gte: since } } },
    {
      $group: {
        _id: null,
        attempts: { $sum: 1 },
        succeeded: { $sum: { $cond: [isSucceeded, 1, 0] } },
        responded: { $sum: { $cond: [{ $ne: ['$attempts.response_status', null] }, 1, 0] } },
      },
    },
  ];
}

/** The latest failed attempt since `since` (one `$facet` branch). */
function lastFailureFacet(since: Date): PipelineStage.FacetPipelineStage[] {
  return [
    { $match: { 'attempts.attempted_at': { $gte: since } } },
    { $match: { $expr: { $not: [isSucceeded] } } },
    { $sort: { 'attempts.attempted_at': -1, delivery_id: 1 } },
    { $limit: 1 },
    {
      $project: {
        _id: 0,
        delivery_id: 1,
        attempted_at: '$attempts.attempted_at',
        response_status: { $ifNull: ['$attempts.response_status', null] },
        error: { $ifNull: ['$attempts.error', null] },
      },
    },
  ];
}

/** 1-based nearest rank of the 95th percentile among `n` sorted values. */
export function p95Rank(n: number): number {
  return Math.ceil(0.95 * n);
}

/**
 * The subscription's attempts made since `since` (ADR 0417). Served by the
 * `{ tenant_id, subscription_id, created_at: -1 }` index (its prefix): only this subscription's
 * deliveries are read, and retention bounds them. `created_at` cannot narrow it further, since a
 * redelivery attempts an old delivery again inside the window.
 */
export const healthMatch = (
  subscriptionId: number,
  since: Date,
): ScopedFilter<DeliveryDocument> => ({
  subscription_id: subscriptionId,
  'attempts.attempted_at': { $gte: since },
});

/** What the window's `$facet` answers: the counts and the last failure. */
export interface HealthFacets {
  counts: Array<{ attempts: number; succeeded: number; responded: number }>;
  last_failure: HealthFailureRow[];
}

/** One `$facet` after the match: the window's counts and its last failure. */
export const healthFacets = (since: Date): PipelineStage[] => [
  { $unwind: '$attempts' },
  { $facet: { counts: windowFacet(since), last_failure: lastFailureFacet(since) } },
];

/** The nearest-rank p95 of the `responded` answered attempts' durations, by `$skip`. */
export const p95Latency = (since: Date, responded: number): PipelineStage[] => [
  { $unwind: '$attempts' },
  { $match: { 'attempts.attempted_at': { $gte: since }, ...RESPONDED } },
  { $sort: { 'attempts.duration_ms': 1 } },
  { $skip: p95Rank(responded) - 1 },
  { $limit: 1 },
  { $project: { _id: 0, duration_ms: '$attempts.duration_ms' } },
];

/** The window's counts from its facets (all zero when no attempt was made). */
export const healthCounts = (facets: HealthFacets | undefined) =>
  facets?.counts[0] ?? { attempts: 0, succeeded: 0, responded: 0 };

/** One window's figures from its facets and its p95 (null when no attempt got a response). */
export function healthWindow(
  facets: HealthFacets | undefined,
  p95: number | null,
): HealthWindowRow {
  const counts = healthCounts(facets);
  return {
    attempts: counts.attempts,
    succeeded: counts.succeeded,
    success_rate: counts.attempts === 0 ? null : counts.succeeded / counts.attempts,
    p95_latency_ms: p95,
    last_failure: facets?.last_failure[0] ?? null,
  };
}
