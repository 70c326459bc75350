import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { createLogger } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { errorEnvelopeServerOptions } from './error-handler.js';

/**
 * A router error that is none of the known ones (here an asynchronous route constraint that
 * fails, the one other error Fastify hands to `frameworkErrors`) is answered 500 in the
 * specification's envelope and logged, as any unhandled error is.
 */
describe('frameworkErrors', () => {
  it('answers an unexpected router error 500 in the envelope and logs it with the error', async () => {
    const lines: Record<string, unknown>[] = [];
    const destination = new Writable({
      write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()),
    });
    const logger = createLogger({ service: 'gateway', level: 'info', destination });
    // An asynchronous strategy (a third `done` argument) that fails; Fastify's types name only
    // the synchronous form, which find-my-way tells apart by the function's arity.
    const failingRegion = {
      name: 'region',
      storage: () => {
        const handlers = new Map<string, unknown>();
        return {
          get: (value: string) => handlers.get(value) ?? null,
          set: (value: string, handler: unknown) => void handlers.set(value, handler),
        };
      },
      deriveConstraint: (_request: unknown, _context: unknown, done: (error: Error) => void) =>
        done(new Error('the region lookup failed')),
      mustMatchWhenDerived: false,
      validate: () => undefined,
    };
    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      ...errorEnvelopeServerOptions,
      constraints: { region: failingRegion } as unknown as FastifyServerOptions['constraints'],
    });
    app.get('/constrained', { constraints: { region: 'eu' } }, async () => ({ ok: true }));

    const response = await app.inject({ method: 'GET', url: '/constrained' });

    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Server Error' });
    const logged = lines.find((line) => line.msg === 'router error before any route ran');
    expect(logged).toMatchObject({ level: 50, err: { code: 'FST_ERR_ASYNC_CONSTRAINT' } });
    await app.close();
  });
});
