import type { FastifyRequest } from 'fastify';
import { codeBody, validationBody } from './envelopes.js';
import { HttpError } from './http-error.js';

const label = (field: string) => field.replace(/_/g, ' ');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  options: { required?: boolean } = {},
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
  if (!isObject(body))
    throw new HttpError(422, validationBody({ body: ['The request body must be a JSON object.'] }));
  return body;
}

/**
 * The gateway's one body reader: shape checks for JSON bodies with Laravel's
 * wording. Business rules (known scopes, CIDRs, bounds) are the service's, which
 * answers with the same field-error shape; unknown fields are ignored, as Laravel
 * does. `BodyReader.of(request)` applies `jsonObjectBody` first.
 */
export class BodyReader {
  private readonly errors: Record<string, string[]> = {};
  private readonly body: Record<string, unknown>;

  constructor(raw: Record<string, unknown>) {
    this.body = raw;
  }

  /** The request's body: 415 for another content type, 422 when it is not a JSON object. */
  static of(request: FastifyRequest): BodyReader {
    return new BodyReader(jsonObjectBody(request));
  }

  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, field);
  }

  private fail(field: string, message: string): undefined {
    (this.errors[field] ??= []).push(message);
    return undefined;
  }

  string(field: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') {
      return options.required
        ? this.fail(field, `The ${label(field)} field is required.`)
        : undefined;
    }
    if (typeof value !== 'string')
      return this.fail(field, `The ${label(field)} field must be a string.`);
    if (options.max !== undefined && value.length > options.max)
      return this.fail(
        field,
        `The ${label(field)} field must not be greater than ${options.max} characters.`,
      );
    return value;
  }

  stringArray(field: string, options: { maxItems?: number } = {}): string[] | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value))
      return this.fail(field, `The ${label(field)} field must be an array.`);
    if (options.maxItems !== undefined && value.length > options.maxItems)
      return this.fail(
        field,
        `The ${label(field)} field must not have more than ${options.maxItems} items.`,
      );
    let ok = true;
    value.forEach((item, index) => {
      if (typeof item !== 'string') {
        ok = false;
        this.fail(`${field}.${index}`, `The ${field}.${index} field must be a string.`);
      } else if (item.length > 255) {
        ok = false;
        this.fail(
          `${field}.${index}`,
          `The ${field}.${index} field must not be greater than 255 characters.`,
        );
      }
    });
    return ok ? (value as string[]) : undefined;
  }

  integer(field: string): number | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value))
      return this.fail(field, `The ${label(field)} field must be an integer.`);
    if (Math.abs(value) > 2_147_483_647)
      return this.fail(field, `The ${label(field)} field must not be greater than 2147483647.`);
    return value;
  }

  date(field: string): Date | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 64)
      return this.fail(field, `The ${label(field)} field must be a valid date.`);
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime()))
      return this.fail(field, `The ${label(field)} field must be a valid date.`);
    return parsed;
  }

  /** Throws the 422 envelope when any check failed. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw new HttpError(422, validationBody(this.errors));
  }
}
