import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { createLogger } from '@inventory/platform';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory } from './request-logger.js';

function appLoggingAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write: (chunk, _encoding, done) => void (lines.push(JSON.parse(String(chunk))), done()),
  });
  const logger = createLogger({ service: 'gateway', level, destination });
  const child = vi.spyOn(logger, 'child');
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    childLoggerFactory: lazyChildLoggerFactory,
  });
  app.get('/quiet', async (request) => {
    request.log.info({ detail: 'routine' }, 'below the level');
    return { ok: true };
  });
  app.get('/chatty', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a route that asked for its own level');
    return { ok: true };
  });
  app.get('/loud', async (request) => {
    request.log.error({ authorization: 'Bearer 1|secret' }, 'worth a line');
    return { ok: true };
  });
  // Fastify makes children of its own while it boots; only the ones made per request count.
  const childrenPerRequest = () => child.mock.calls.length - childrenAtBoot;
  let childrenAtBoot = 0;
  return {
    app,
    lines,
    childrenPerRequest,
    ready: async () => {
      await app.ready();
      childrenAtBoot = child.mock.calls.length;
    },
  };
}

describe('LazyRequestLogger', () => {
  it('makes no child logger for a request that logs nothing at an enabled level', async () => {
    const { app, lines, childrenPerRequest, ready } = appLoggingAt('warn');
    await ready();
    const response = await app.inject({ url: '/quiet' });
    expect(response.statusCode).toBe(200);
    expect(childrenPerRequest()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes enabled lines through a child bound to the request id, redaction intact', async () => {
    const { app, lines, childrenPerRequest, ready } = appLoggingAt('warn');
    await ready();
    const response = await app.inject({ url: '/loud' });
    expect(response.statusCode).toBe(200);
    expect(childrenPerRequest()).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'worth a line', service: 'gateway' });
    expect(lines[0]!.reqId).toMatch(/^req-/);
    expect(JSON.stringify(lines[0])).not.toContain('secret');
  });

  it('still logs every level the parent enables, Fastify’s own request lines included', async () => {
    const { app, lines } = appLoggingAt('info');
    await app.inject({ url: '/quiet' });
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(['incoming request', 'below the level', 'request completed']);
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(1);
  });

  it("honours a route's own log level", async () => {
    const { app, lines, ready } = appLoggingAt('warn');
    await ready();
    await app.inject({ url: '/chatty' });
    expect(lines.map((line) => line.msg)).toContain('a route that asked for its own level');
  });
});
