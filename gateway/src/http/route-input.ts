import type { FastifyRequest } from 'fastify';
import { jsonObjectBody } from './body.js';
import { validationBody } from './envelopes.js';
import { HttpError } from './http-error.js';
import {
  isObject,
  objectSchema,
  readFields,
  type FieldErrors,
  type FieldsOf,
  type InputField,
  type JsonSchema,
  type ValuesOf,
} from './input-field.js';
import { filterValue } from './query.js';

/**
 * A route's input, declared once beside its method and path (`declareRoutes`, ADR 0015): from
 * it `handle()` reads and checks the request and registers the JSON Schema the OpenAPI document
 * shows, so what is validated is what is documented.
 */
export interface RouteInput {
  params?: FieldsOf;
  body?: BodyInput<FieldsOf>;
  query?: FieldsOf;
  /**
   * Field errors are handed to the handler (`input.errors`) instead of answered as a 422 at once:
   * for routes that send them to the service with its own rules (one 422 naming every field), or
   * that must answer a 404 first.
   */
  deferErrors?: boolean;
}

export interface BodyInput<F extends FieldsOf> {
  fields: F;
  /** No body is a 422 too (an empty update never answers 200). */
  required?: boolean;
  /**
   * JSON that is not an object reads as `{}`: every field then answers for itself (another media
   * type is still 415).
   */
  lenient?: boolean;
}

/** A JSON body of `fields`: 415 for another content type, 422 for one that is not an object. */
export function body<const F extends FieldsOf>(
  fields: F,
  options: Omit<BodyInput<F>, 'fields'> = {},
): BodyInput<F> {
  return { fields, ...options };
}

type NoInput = Record<string, never>;

/** What the handler receives: the typed values, and the field errors when they are deferred. */
export interface InputOf<I extends RouteInput | undefined> {
  params: I extends { params: infer P extends FieldsOf } ? ValuesOf<P> : NoInput;
  body: I extends { body: BodyInput<infer F> } ? ValuesOf<F> : NoInput;
  query: I extends { query: infer Q extends FieldsOf } ? ValuesOf<Q> : NoInput;
  errors: FieldErrors;
}

const queryName = (key: string, field: InputField<unknown>) =>
  field.inFilter ? `filter.${key}` : key;
const queryProperty = (key: string, field: InputField<unknown>) =>
  field.inFilter ? `filter[${key}]` : key;

/**
 * Reads a request by its declaration: path parameters first (a bad one is its 404), then the
 * body (415, or 422 when it is not an object), then body fields and query parameters, whose
 * errors are one 422 unless `deferErrors`.
 */
export function readInput<I extends RouteInput | undefined>(
  request: FastifyRequest,
  input: I,
): InputOf<I> {
  // A route that declares no input (the probes, say): nothing to read, check or copy.
  if (!input) return { params: {}, body: {}, query: {}, errors: {} } as unknown as InputOf<I>;
  const errors: FieldErrors = {};
  const params = (request.params ?? {}) as Record<string, unknown>;
  const values: Record<string, unknown> = { params: {}, body: {}, query: {} };
  if (input.params) values.params = readFields(input.params, (key) => params[key], errors);
  if (input.body) {
    const { fields, lenient, required } = input.body;
    const body = jsonObjectBody(request, { required, lenient });
    values.body = readFields(fields, (key) => body[key], errors);
  }
  if (input.query) values.query = readQueryInto(input.query, request.query, errors);
  if (!input.deferErrors && Object.keys(errors).length > 0)
    throw new HttpError(422, validationBody(errors));
  return { ...values, errors } as unknown as InputOf<I>;
}

function readQueryInto<F extends FieldsOf>(fields: F, raw: unknown, errors: FieldErrors) {
  const query = (isObject(raw) ? raw : {}) as Record<string, unknown>;
  return readFields(
    fields,
    (key, field) => (field.inFilter ? filterValue(query, key) : query[key]),
    errors,
    queryName,
  );
}

/** Query parameters read by their declaration (what `handle()` does), for a list's own tests. */
export function readQuery<F extends FieldsOf>(
  fields: F,
  query: unknown,
): { values: ValuesOf<F>; errors: FieldErrors } {
  const errors: FieldErrors = {};
  return { values: readQueryInto(fields, query, errors), errors };
}

/** The schema `handle()` registers for a declared input: what the OpenAPI document shows. */
export function inputSchema(input: RouteInput | undefined): {
  params?: JsonSchema;
  body?: JsonSchema;
  querystring?: JsonSchema;
} {
  const schema: { params?: JsonSchema; body?: JsonSchema; querystring?: JsonSchema } = {};
  if (input?.params) schema.params = objectSchema(input.params);
  if (input?.body) schema.body = objectSchema(input.body.fields);
  if (input?.query) schema.querystring = objectSchema(input.query, queryProperty);
  return schema;
}

/** Deferred field errors as the proto's `input_violations`, in the order they were found. */
export function violationsOf(errors: FieldErrors): Array<{ field: string; description: string }> {
  return Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((description) => ({ field, description })),
  );
}

/** Answers deferred field errors as the 422 envelope. */
export function refuseInvalid(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw new HttpError(422, validationBody(errors));
}
