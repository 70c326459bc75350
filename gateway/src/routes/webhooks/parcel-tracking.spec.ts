import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { createLogger } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { createWebhookIngestAdapter } from '../../adapters/webhook-ingest.js';
import { registerErrorHandling } from '../../http/error-handler.js';
import { parcelTrackingWebhookRoutes } from './parcel-tracking.js';

const token = `wh_${'A1b2C3d4'.repeat(6)}`;

describe('webhook request logging', () => {
  it('never writes the token to the log, even when webhook-ingest is unreachable', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()),
    });
    const app = Fastify({
      loggerInstance: createLogger({
        service: 'gateway',
        level: 'info',
        destination,
      }) as FastifyBaseLogger,
    });
    registerErrorHandling(app);
    // A real adapter aimed at a closed port: the call fails like an outage would.
    const webhookIngest = createWebhookIngestAdapter('127.0.0.1:1', { deadlineMs: 500 });
    await app.register(parcelTrackingWebhookRoutes, { webhookIngest });
    try {
      const response = await app.inject({
        method: 'POST',
        url: `/webhooks/parcel-tracking/${token}`,
        payload: '{"event":"TRACKING_UPDATED"}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(503);
      // A URL no route matches is logged by the 404 handler: masked there too.
      const unmatched = await app.inject({
        method: 'POST',
        url: `/webhooks/parcel-tracking/${token}/extra`,
      });
      expect(unmatched.statusCode).toBe(404);
      const log = lines.join('');
      expect(log).toContain('incoming request');
      expect(log).toContain('wh_[REDACTED]');
      expect(log).not.toContain(token);
    } finally {
      webhookIngest.close();
      await app.close();
    }
  });
});
