import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './rate-limit-headers.js';

describe('rate-limit headers (ADR 0117)', () => {
  it('sends the X-RateLimit trio and the IETF structured fields for the same budget', () => {
    const headers = rateLimitHeaders(
      'token',
      { allowed: true, limit: 100, remaining: 97, resetAt: 1_800_000_002, retryAfterSeconds: 0 },
      1_800_000_000.4,
    );
    expect(headers).toEqual({
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '97',
      'x-ratelimit-reset': '1800000002',
      'ratelimit-policy': '"token";q=100;w=60',
      ratelimit: '"token";r=97;t=2',
    });
  });

  it('keeps the reset within one window', () => {
    const headers = rateLimitHeaders(
      'token',
      { allowed: true, limit: 3, remaining: 2, resetAt: 1061, retryAfterSeconds: 0 },
      1000.2,
    );
    expect(headers.ratelimit).toBe('"token";r=2;t=60');
  });

  it('never gives a negative reset, and names the policy the budget is kept per', () => {
    const headers = rateLimitHeaders(
      'address',
      { allowed: false, limit: 10, remaining: 0, resetAt: 99, retryAfterSeconds: 6 },
      100,
    );
    expect(headers['ratelimit-policy']).toBe('"address";q=10;w=60');
    expect(headers.ratelimit).toBe('"address";r=0;t=0');
  });

  it('writes Structured Field Lists of Items with a String and integer parameters (RFC 8941)', () => {
    const item = /^"[a-z]+"(;[a-z]+=\d+)+$/;
    const headers = rateLimitHeaders(
      'session',
      { allowed: true, limit: 1000, remaining: 0, resetAt: 160, retryAfterSeconds: 0 },
      100,
    );
    expect(headers['ratelimit-policy']).toMatch(item);
    expect(headers.ratelimit).toMatch(item);
  });
});
