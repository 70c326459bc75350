import type { FastifyReply } from 'fastify';
import type { RateLimitResult } from './rate-limiter.js';

/** What a budget is kept per: the token, the signed-in user, or the client address. */
export type RatePolicyName = 'token' | 'session' | 'address';

/** Every budget is N requests in any window of one minute (ADR 0111). */
const WINDOW_SECONDS = 60;

/**
 * The rate-limit headers of one answer (ADR 0117): the `X-RateLimit-*` trio the API has always
 * sent, and beside it the IETF draft's structured fields (draft-ietf-httpapi-ratelimit-headers):
 * `RateLimit-Policy: "token";q=1000;w=60` and `RateLimit: "token";r=998;t=1`. `r` is what is
 * left now, `t` the seconds until the whole quota is back (the trio's reset, as a delta).
 */
export function rateLimitHeaders(
  policy: RatePolicyName,
  result: RateLimitResult,
  nowSeconds: number,
): Record<string, string> {
  // `resetAt` is whole seconds rounded up: the delta is kept within one window.
  const reset = Math.min(WINDOW_SECONDS, Math.max(0, Math.ceil(result.resetAt - nowSeconds)));
  return {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(result.remaining),
    'x-ratelimit-reset': String(result.resetAt),
    'ratelimit-policy': `"${policy}";q=${result.limit};w=${WINDOW_SECONDS}`,
    ratelimit: `"${policy}";r=${result.remaining};t=${reset}`,
  };
}

export function applyRateHeaders(
  reply: FastifyReply,
  policy: RatePolicyName,
  result: RateLimitResult,
): void {
  void reply.headers(rateLimitHeaders(policy, result, Date.now() / 1000));
}
