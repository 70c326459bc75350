import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { field } from './body-fields.js';
import { registerErrorHandling } from './error-handler.js';
import { param } from './param-fields.js';
import { query } from './query-fields.js';
import { body, inputSchema } from './route-input.js';
import { declareRoutes, handle } from './routes.js';

const ROUTES = declareRoutes({
  update: {
    method: 'PATCH',
    url: '/things/:id',
    access: 'public',
    input: {
      params: { id: param.id('Thing not found.') },
      body: body({ name: field.string({ required: true, max: 5 }), on: field.boolean() }),
      query: { search: query.search({ max: 10 }) },
    },
  },
  create: {
    method: 'POST',
    url: '/things',
    access: 'public',
    input: { body: body({ name: field.string() }, { required: true }), deferErrors: true },
  },
  loose: {
    method: 'POST',
    url: '/loose',
    access: 'public',
    input: { body: body({ key: field.string({ nulls: 'empty' }) }, { lenient: true }) },
  },
});

let app: FastifyInstance;
afterEach(() => app?.close());

async function build() {
  app = Fastify();
  registerErrorHandling(app);
  handle(app, ROUTES.update, async (_request, _reply, input) => ({
    params: input.params,
    body: input.body,
    query: input.query,
  }));
  handle(app, ROUTES.create, async (_request, _reply, { body: read, errors }) => ({
    read,
    errors,
  }));
  handle(app, ROUTES.loose, async (_request, _reply, { body: read }) => read);
  await app.ready();
  return app;
}

const json = (payload: unknown) => ({
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(payload),
});

describe('a declared input, read by handle() (ADR 0015)', () => {
  it('hands the handler typed values; unknown fields are ignored', async () => {
    await build();
    const answer = await app.inject({
      method: 'PATCH',
      url: '/things/12?filter[search]=%20ab%20&other=1',
      ...json({ name: 'abc', on: true, extra: 1 }),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      params: { id: 12 },
      body: { name: 'abc', on: true },
      query: { search: 'ab' },
    });
  });

  it('answers a bad path parameter with its 404 before reading anything else', async () => {
    await build();
    const answer = await app.inject({ method: 'PATCH', url: '/things/x1', ...json([1]) });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().message).toBe('Thing not found.');
  });

  it('answers 415 for another content type and 422 for a body that is not an object', async () => {
    await build();
    const plain = await app.inject({
      method: 'PATCH',
      url: '/things/1',
      headers: { 'content-type': 'text/plain' },
      payload: 'name',
    });
    expect(plain.statusCode).toBe(415);
    const array = await app.inject({ method: 'PATCH', url: '/things/1', ...json([1]) });
    expect(array.statusCode).toBe(422);
    expect(array.json().errors).toEqual({ body: ['The request body must be a JSON object.'] });
  });

  it('answers every field error of body and query in one 422', async () => {
    await build();
    const answer = await app.inject({
      method: 'PATCH',
      url: `/things/1?filter[search]=${'x'.repeat(11)}`,
      ...json({ name: 'toolong', on: 'yes' }),
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({
      message: 'The name field must not be greater than 5 characters. (and 2 more errors)',
      errors: {
        name: ['The name field must not be greater than 5 characters.'],
        on: ['The on field must be true or false.'],
        'filter.search': ['The filter.search field must not be greater than 10 characters.'],
      },
    });
  });

  it('hands deferred errors to the handler; a required body that is missing is 422', async () => {
    await build();
    const deferred = await app.inject({ method: 'POST', url: '/things', ...json({ name: 3 }) });
    expect(deferred.json()).toEqual({
      read: {},
      errors: { name: ['The name field must be a string.'] },
    });
    const missing = await app.inject({ method: 'POST', url: '/things' });
    expect(missing.statusCode).toBe(422);
  });

  it('reads a lenient body that is not an object as {}', async () => {
    await build();
    const answer = await app.inject({ method: 'POST', url: '/loose', ...json([1]) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({});
  });

  it('refuses another media type on a lenient body too (415, as every JSON body)', async () => {
    await build();
    const answer = await app.inject({
      method: 'POST',
      url: '/loose',
      headers: { 'content-type': 'text/plain' },
      payload: 'key=x',
    });
    expect(answer.statusCode).toBe(415);
    expect(answer.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('derives the documented schema from the same declaration', () => {
    expect(inputSchema(ROUTES.update.input)).toEqual({
      params: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[1-9]\\d{0,14}$' } },
        required: ['id'],
      },
      body: {
        type: 'object',
        properties: { name: { type: 'string', maxLength: 5 }, on: { type: 'boolean' } },
        required: ['name'],
      },
      querystring: {
        type: 'object',
        properties: { 'filter[search]': { type: 'string', maxLength: 10 } },
      },
    });
  });

  it('refuses to register a route whose path parameters are not declared', () => {
    app = Fastify();
    const undeclared = declareRoutes({
      show: { method: 'GET', url: '/things/:id/parts/:part', access: 'public' },
    });
    expect(() => handle(app, undeclared.show, async () => ({}))).toThrow(
      'Route GET /things/:id/parts/:part does not declare its path parameters: id, part.',
    );
  });
});
