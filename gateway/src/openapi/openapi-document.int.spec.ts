import { createConfig, lintFromString } from '@redocly/openapi-core';
import { TOKEN_EXPIRATION_HEADER } from '@inventory/access';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDocument, withDocumentGateway } from '../../scripts/document-gateway.js';
import { requiredScope } from '../auth/route-access.js';
import { ROUTE_TABLE } from '../routes/route-table.js';
import {
  codeBody,
  forbiddenBody,
  invalidTokenBody,
  notFoundBody,
  tooManyRequestsBody,
  unauthenticatedBody,
  validationBody,
} from '../http/envelopes.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is read as plain JSON */
type Doc = any;

/** Routes that are not part of the API: the docs themselves and the web app's files. */
const NOT_API = /^GET \/(api\/docs|api\/openapi\.json|app)(\/|$)/;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const openApiPath = (route: string) => route.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('GET /api/openapi.json', { timeout: 120_000 }, () => {
  let document: Doc;
  let operations: Array<{ key: string; operation: Doc }>;
  // One gateway for the suite: started in beforeAll, stopped in afterAll.
  let release: () => void;
  let stopped: Promise<unknown>;

  beforeAll(async () => {
    let ready!: (doc: Doc) => void;
    const loaded = new Promise<Doc>((resolve) => (ready = resolve));
    stopped = withDocumentGateway(async (gateway) => {
      ready(await fetchDocument(gateway));
      await new Promise<void>((resolve) => (release = resolve));
    });
    document = await Promise.race([loaded, stopped.then(() => undefined)]);
    operations = Object.entries(document.paths as Record<string, Doc>).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({
        key: `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
        operation: item[method],
      })),
    );
  });
  afterAll(async () => {
    release?.();
    await stopped;
  });

  it('describes every route of the route table, and nothing the table does not govern', () => {
    const apiRoutes = Object.keys(ROUTE_TABLE).filter((key) => !NOT_API.test(key));
    const documented = operations.map(({ key }) => key);
    expect([...documented].sort()).toEqual([...apiRoutes].sort());
    for (const key of apiRoutes) {
      const [method, route] = key.split(' ') as [string, string];
      expect(document.paths[openApiPath(route)]?.[method.toLowerCase()], key).toBeDefined();
    }
  });

  it('documents the success status each route declares (201, 202, 204), never a default 200', () => {
    const declared = Object.entries(ROUTE_TABLE)
      .filter(([, rule]) => rule.successStatus)
      .map(([key, rule]) => [key, rule.successStatus] as const);
    // The spec's creates, deletes and queued actions: the declarations cover each of them.
    expect(declared.map(([key, status]) => `${status} ${key}`).sort()).toEqual([
      '201 POST /api/integrations/parcel-tracking/instances',
      '201 POST /api/personal-access-tokens',
      '201 POST /api/webhook-subscriptions',
      '202 POST /api/credentials/revoke',
      '202 POST /api/integrations/parcel-tracking/instances/:instance/webhooks/:webhook/reprocess',
      '202 POST /api/integrations/parcel-tracking/instances/:instance/webhooks/reprocess',
      '202 POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver',
      '202 POST /api/webhook-subscriptions/:id/recover',
      '202 POST /api/webhook-subscriptions/:id/test',
      '204 DELETE /api/integrations/parcel-tracking/instances/:instance',
      '204 DELETE /api/organization/personal-access-tokens/:id',
      '204 DELETE /api/personal-access-tokens/:id',
      '204 DELETE /api/user/two-factor',
      '204 DELETE /api/webhook-subscriptions/:id',
      '204 POST /auth/logout',
    ]);
    for (const [key, status] of declared) {
      const { operation } = operations.find((entry) => entry.key === key)!;
      const successes = Object.keys(operation.responses).filter((code) => code.startsWith('2'));
      expect(successes, key).toEqual([String(status)]);
      if (status === 204) expect(operation.responses['204'].content, key).toBeUndefined();
      else
        expect(
          operation.responses[String(status)].content?.['application/json'],
          key,
        ).toBeDefined();
    }
  });

  it('gives each operation a unique operationId, a summary, tags, and the access of the route table', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { key, operation } of operations) {
      const rule = ROUTE_TABLE[key]!;
      const scope = requiredScope(rule.access, key.split(' ')[0]!);
      expect(operation.summary, key).toMatch(/\S/);
      expect(operation.tags?.length, key).toBeGreaterThan(0);
      expect(operation['x-required-scope'], key).toBe(scope);
      const schemes = (operation.security as Array<Record<string, string[]>>).flatMap((entry) =>
        Object.entries(entry),
      );
      if (rule.access === 'public') expect(schemes, key).toEqual([]);
      else if (rule.access === 'session') expect(schemes, key).toEqual([['sessionCookie', []]]);
      else
        expect(schemes, key).toEqual([
          ['bearerToken', scope ? [scope] : []],
          ['sessionCookie', []],
        ]);
      if (scope) expect(operation.description, key).toContain(`\`${scope}\``);
    }
    expect(document.components.securitySchemes.bearerToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'inventory_session',
    });
  });

  it("documents every error the gateway answers for the route's kind, with the rate-limit headers", () => {
    const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
    for (const { key, operation } of operations) {
      const rule = ROUTE_TABLE[key]!;
      const { responses } = operation;
      if (rule.access !== 'public') {
        expect(responses['401'], key).toEqual(responseRef('Unauthenticated'));
        expect(responses['403'], key).toEqual(responseRef('Forbidden'));
        expect(responses['429'], key).toEqual(responseRef('TooManyRequests'));
        const success = Object.entries(responses).filter(([status]) => status.startsWith('2'));
        expect(success.length, key).toBeGreaterThan(0);
        for (const [, response] of success as Array<[string, Doc]>)
          expect(Object.keys(response.headers ?? {}), key).toEqual(
            expect.arrayContaining([
              'X-RateLimit-Limit',
              'X-RateLimit-Remaining',
              'X-RateLimit-Reset',
              'RateLimit-Policy',
              'RateLimit',
              ...(rule.access === 'session' ? [] : [TOKEN_EXPIRATION_HEADER]),
            ]),
          );
      }
      if (!rule.tenantless) {
        expect(responses['404'], key).toEqual(responseRef('NotFound'));
        // 422 where something can be refused: a declared body or query, or a refused state.
        const refusable =
          Boolean(operation.requestBody) ||
          ((operation.parameters ?? []) as Doc[]).some((parameter) => parameter.in === 'query') ||
          rule.refusesState === true ||
          rule.idempotent === true;
        if (refusable) expect(responses['422'], key).toEqual(responseRef('Unprocessable'));
        else expect(responses['422'], key).toBeUndefined();
      }
    }
    const shared = document.components.responses;
    const schemaRefs = (name: string) =>
      shared[name].content['application/json'].schema.oneOf.map((entry: Doc) => entry.$ref);
    expect(schemaRefs('Unauthenticated')).toEqual([
      '#/components/schemas/Unauthenticated',
      '#/components/schemas/InvalidToken',
    ]);
    expect(schemaRefs('Unprocessable')).toEqual([
      '#/components/schemas/ValidationFailed',
      '#/components/schemas/CodedError',
    ]);
    expect(schemaRefs('Forbidden')).toContain('#/components/schemas/MissingScope');
    expect(document.components.schemas.MissingScope.required).toContain('required_scope');
    expect(shared.TooManyRequests.headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
  });

  it('documents Idempotency-Key, its 409 and Idempotent-Replayed on every creating POST, and only there', () => {
    const idempotent = operations.filter(({ key }) => ROUTE_TABLE[key]!.idempotent);
    expect(idempotent.map(({ key }) => key).sort()).toEqual([
      'POST /api/integrations/parcel-tracking/instances',
      'POST /api/integrations/parcel-tracking/instances/:instance/webhooks/reprocess',
      'POST /api/personal-access-tokens',
      'POST /api/personal-access-tokens/:id/regenerate',
      'POST /api/webhook-subscriptions',
      'POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver',
      'POST /api/webhook-subscriptions/:id/recover',
      'POST /api/webhook-subscriptions/:id/rotate-secret',
      'POST /api/webhook-subscriptions/:id/test',
    ]);
    const headerOf = (operation: Doc) =>
      ((operation.parameters ?? []) as Doc[]).find(
        (parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      );
    for (const { key, operation } of operations) {
      if (!ROUTE_TABLE[key]!.idempotent) {
        expect(headerOf(operation), key).toBeUndefined();
        expect(operation.responses['409'], key).toBeUndefined();
        continue;
      }
      expect(headerOf(operation), key).toMatchObject({
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
      expect(operation.responses['409'], key).toEqual({
        $ref: '#/components/responses/IdempotencyKeyInUse',
      });
      for (const [status, response] of Object.entries(operation.responses) as Array<[string, Doc]>)
        if (status.startsWith('2'))
          expect(response.headers['Idempotent-Replayed'], key).toEqual({
            $ref: '#/components/headers/Idempotent-Replayed',
          });
    }
  });

  it('keeps request and response bodies in components', () => {
    for (const { key, operation } of operations) {
      const bodies = [
        operation.requestBody?.content?.['application/json'],
        ...Object.entries(operation.responses as Record<string, Doc>)
          .filter(([status]) => status.startsWith('2'))
          .map(([, response]) => response.content?.['application/json']),
      ].filter(Boolean);
      for (const body of bodies) {
        const target = /^#\/components\/schemas\/(.+)$/.exec(body.schema.$ref)?.[1];
        expect(target, key).toBeDefined();
        expect(document.components.schemas[target!], key).toBeDefined();
      }
    }
  });

  it('marks every field of an answer required (presenters write null, never leave a key out)', () => {
    const optional: string[] = [];
    const walk = (schema: Doc, at: string) => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.properties && typeof schema.properties === 'object') {
        const required = new Set<string>(schema.required ?? []);
        for (const [name, property] of Object.entries(schema.properties as Record<string, Doc>)) {
          if (!required.has(name)) optional.push(`${at}.${name}`);
          walk(property, `${at}.${name}`);
        }
      }
      walk(schema.items, `${at}[]`);
      if (typeof schema.additionalProperties === 'object')
        walk(schema.additionalProperties, `${at}.*`);
    };
    for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Doc>))
      if (/Response$/.test(name)) walk(schema, name);
    // A channel's entry in auto_track_channels keeps only the switches that were set.
    expect(optional.filter((path) => !/\.auto_track_channels\.channels\.\*\./.test(path))).toEqual(
      [],
    );
  });

  it('describes the envelopes exactly as http/envelopes.ts builds them', () => {
    const ajv = new Ajv({ strict: false });
    const schemas = document.components.schemas;
    const valid = (name: string, body: unknown) => ajv.validate(schemas[name], body);
    expect(valid('Unauthenticated', unauthenticatedBody())).toBe(true);
    expect(valid('InvalidToken', invalidTokenBody())).toBe(true);
    expect(valid('NotFound', notFoundBody())).toBe(true);
    expect(valid('MissingScope', forbiddenBody('Token is missing a scope.', 'orders:read'))).toBe(
      true,
    );
    expect(valid('Forbidden', forbiddenBody('No.'))).toBe(true);
    expect(
      valid('ValidationFailed', validationBody({ name: ['The name field is required.'] })),
    ).toBe(true);
    expect(valid('CodedError', codeBody('circuit_open', 'Unavailable.'))).toBe(true);
    expect(valid('TooManyRequests', tooManyRequestsBody(7))).toBe(true);
    // And they tell the shapes apart.
    expect(valid('InvalidToken', unauthenticatedBody())).toBe(false);
    expect(valid('MissingScope', forbiddenBody('No.'))).toBe(false);
  });

  it("passes Redocly's recommended lint without errors", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message} ${problem.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });
});
