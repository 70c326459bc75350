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
export const RESPONDED = { 'attempts.response_status': { $ne: null } };

/** A 2xx response is a success, as the worker settles it (domain/attempt-outcome). */
const isSucceeded = {
  $and: [{ $gte: ['$attempts.response_status', 200] }, { $lt: ['$attempts.response_status', 300] }],
};

/** Counts of the attempts made since `since`: all, 2xx, answered (one `$facet` branch). */
export function windowFacet(since: Date): PipelineStage.FacetPipelineStage[] {
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
export function lastFailureFacet(since: Date): PipelineStage.FacetPipelineStage[] {
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
