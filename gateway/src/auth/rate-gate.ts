import type { FastifyReply } from 'fastify';
import { tooManyRequestsBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { applyRateHeaders, type RatePolicyName } from './rate-limit-headers.js';
import { RateLimiterUnavailable, type RateLimiter, type RateLimitResult } from './rate-limiter.js';

/**
 * Takes one request from a key's budget: the rate-limit headers on the reply, and the 429 when
 * the budget is spent. Returns a promise only when Redis must be asked (ADR 0718).
 */
export type RateGate = (
  reply: FastifyReply,
  policy: RatePolicyName,
  key: string,
  max: number,
) => Promise<void> | void;

/** Rate-limit headers, and the 429 when the key's budget is spent. */
function admitWithin(
  reply: FastifyReply,
  policy: RatePolicyName,
  result: RateLimitResult | undefined,
): void {
  if (!result) return;
  applyRateHeaders(reply, policy, result);
  if (!result.allowed) {
    throw new HttpError(429, tooManyRequestsBody(result.retryAfterSeconds), {
      'retry-after': String(result.retryAfterSeconds),
    });
  }
}

/** A slot of the replica's lease without a promise; else the shared budget in Redis. */
export function rateGate(limiter: RateLimiter): RateGate {
  return (reply, policy, key, max) => {
    const leased = limiter.takeLeased(key, max);
    if (leased) return admitWithin(reply, policy, leased);
    return limiter.takeShared(key, max).then(
      (result) => admitWithin(reply, policy, result),
      (error: unknown) => {
        if (error instanceof RateLimiterUnavailable)
          throw new HttpError(
            503,
            {
              message: 'The service is temporarily unavailable. Try again shortly.',
              code: 'rate_limiter_unavailable',
            },
            { 'retry-after': '5' },
          );
        throw error;
      },
    );
  };
}
