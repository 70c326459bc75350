import type { FastifyRequest } from 'fastify';
import { codeBody, validationBody } from './envelopes.js';
import { HttpError } from './http-error.js';
import { isObject } from './input-field.js';

/** Fastify parses no other JSON type (`application/x+json` with a body is its own 415). */
const isJsonMediaType = (contentType: string) =>
  contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';

/**
 * The JSON object a request carries, checked once for every route that reads a
 * body (ADR 0005, ADR 0703): a body of another content type is 415, a JSON body
 * that is not an object (`[1,2,3]`, `null`, `"x"`, `7`) is 422. No body at all
 * reads as `{}` (each field then answers for itself: "required", or nothing to
 * change), unless `required`: then it is 422 too (the instance writes, never an
 * empty update that answers 200), and a Content-Type other than JSON is 415.
 */
export function jsonObjectBody(
  request: FastifyRequest,
  options: { required?: boolean; lenient?: boolean } = {},
): Record<string, unknown> {
  const body = request.body;
  if (body === undefined && !options.required) return {};
  const type = request.headers['content-type'] ?? '';
  const typed = body !== undefined || type.trim() !== '';
  if (typed && !isJsonMediaType(type))
    throw new HttpError(
      415,
      codeBody(
        'unsupported_media_type',
        'The request body must be JSON (Content-Type: application/json).',
      ),
    );
  if (!isObject(body)) {
    // A lenient route reads JSON that is not an object as `{}`: its fields answer for themselves.
    if (options.lenient) return {};
    throw new HttpError(422, validationBody({ body: ['The request body must be a JSON object.'] }));
  }
  return body;
}
