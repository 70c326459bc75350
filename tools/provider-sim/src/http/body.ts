import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Bodies are kept as raw strings (whatever the content type) and parsed by the routes,
 * so malformed input gets a provider-style answer instead of Fastify's default.
 */
export function registerRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

export type JsonResult = { ok: true; value: unknown } | { ok: false };

export function readJson(req: FastifyRequest): JsonResult {
  const raw = typeof req.body === 'string' ? req.body : '';
  if (raw.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}
