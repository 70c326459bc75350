import type { PipelineStage } from 'mongoose';

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

/** Runs a pipeline after the store's scoped match of the subscription's attempts in the window. */
type AggregateAttempts = <R>(pipeline: PipelineStage[]) => Promise<R[]>;

/**
 * One window's figures: one `$facet` gives the counts and the last failure; a second pass takes
 * the nearest-rank p95 by `$skip`, only when some attempt got a response.
 */
export async function healthWindow(
  since: Date,
  aggregate: AggregateAttempts,
): Promise<HealthWindowRow> {
  const [facets] = await aggregate<{
    counts: Array<{ attempts: number; succeeded: number; responded: number }>;
    last_failure: HealthFailureRow[];
  }>([
    { $unwind: '$attempts' },
    { $facet: { counts: windowFacet(since), last_failure: lastFailureFacet(since) } },
  ]);
  const counts = facets?.counts[0] ?? { attempts: 0, succeeded: 0, responded: 0 };
  let p95: number | null = null;
  if (counts.responded > 0) {
    const [row] = await aggregate<{ duration_ms: number }>([
      { $unwind: '$attempts' },
      { $match: { 'attempts.attempted_at': { $gte: since }, ...RESPONDED } },
      { $sort: { 'attempts.duration_ms': 1 } },
      { $skip: p95Rank(counts.responded) - 1 },
      { $limit: 1 },
      { $project: { _id: 0, duration_ms: '$attempts.duration_ms' } },
    ]);
    p95 = row?.duration_ms ?? null;
  }
  return {
    attempts: counts.attempts,
    succeeded: counts.succeeded,
    success_rate: counts.attempts === 0 ? null : counts.succeeded / counts.attempts,
    p95_latency_ms: p95,
    last_failure: facets?.last_failure[0] ?? null,
  };
}
