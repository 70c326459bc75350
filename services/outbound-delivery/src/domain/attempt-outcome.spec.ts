import { describe, expect, it } from 'vitest';
import { nextStep } from './attempt-outcome.js';

const delays = [30_000, 300_000];

describe('nextStep', () => {
  it('treats every 2xx as success', () => {
    for (const status of [200, 201, 202, 204, 299])
      expect(nextStep({ responseStatus: status }, 1, 3, delays)).toEqual({ kind: 'succeeded' });
  });

  it('ends at once on 410, whatever the attempt', () => {
    expect(nextStep({ responseStatus: 410 }, 1, 3, delays)).toEqual({ kind: 'gone' });
  });

  it('waits 30 s after the first failure and 300 s after the second, then gives up', () => {
    expect(nextStep({ responseStatus: 500 }, 1, 3, delays)).toEqual({
      kind: 'retry',
      afterMs: 30_000,
    });
    expect(nextStep({ error: 'timeout' }, 2, 3, delays)).toEqual({
      kind: 'retry',
      afterMs: 300_000,
    });
    expect(nextStep({ responseStatus: 400 }, 3, 3, delays)).toEqual({ kind: 'failed' });
  });

  it('retries redirects and other non-2xx answers instead of following them', () => {
    expect(nextStep({ responseStatus: 302 }, 1, 3, delays).kind).toBe('retry');
    expect(nextStep({ responseStatus: 404 }, 1, 3, delays).kind).toBe('retry');
  });
});
