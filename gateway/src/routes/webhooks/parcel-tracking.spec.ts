import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { maskedRequestLog } from './parcel-tracking.js';

describe('webhook request logging', () => {
  it('never logs the webhook token in the URL', () => {
    const token = `wh_${'A1b2C3d4'.repeat(6)}`;
    const logged = maskedRequestLog({ method: 'POST', url: `/webhooks/parcel-tracking/${token}?x=1`, host: 'acme.example', ip: '127.0.0.1' } as FastifyRequest);
    expect(JSON.stringify(logged)).not.toContain(token);
    expect(logged.url).toBe('/webhooks/parcel-tracking/wh_[REDACTED]?x=1');
  });
});
