import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { requiredScope, ruleFor, type RouteRule } from '../auth/route-access.js';
import { ERROR_SCHEMAS, HEADERS, RESPONSES, SECURITY_SCHEMES } from './components.js';
import { describeOperations } from './describe-operations.js';
import { declareRoutes, handle } from '../http/routes.js';

const DOCS = '/api/docs';
const docsPage = (url: string) =>
  ({ method: 'GET', url, access: 'public', tenantless: true }) as const;

/**
 * The document and its Swagger UI answer on any Host (no tenant, no credential). `document` is
 * ours; the others are what @fastify/swagger-ui registers under DOCS, declared here so the route
 * table names them (without index.html and swagger-initializer.js the page renders blank).
 */
export const OPENAPI_ROUTES = declareRoutes({
  document: docsPage('/api/openapi.json'),
  ui: docsPage(DOCS),
  uiSlash: docsPage(`${DOCS}/`),
  uiJson: docsPage(`${DOCS}/json`),
  uiYaml: docsPage(`${DOCS}/yaml`),
  uiStatic: docsPage(`${DOCS}/static/*`),
  uiIndex: docsPage(`${DOCS}/static/index.html`),
  uiInitializer: docsPage(`${DOCS}/static/swagger-initializer.js`),
});

/**
 * The OpenAPI 3.1 document of every route registered after this plugin, at
 * /api/openapi.json, and a Swagger UI at /api/docs. Each operation's security,
 * required scope and error responses are read from the route table
 * (describe-operations.ts), so the document cannot disagree with what the auth
 * hook enforces, and a route added later is described too.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  table: Record<string, RouteRule>,
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Inventory Management Service API',
        version: '1.0.0',
        license: { name: 'Proprietary' },
        description:
          "Every path is served on the tenant's own domain ({base_url}). Errors use the specification's envelopes (401, 403, 404, 422, 429).",
      },
      servers: [
        {
          url: '{base_url}',
          variables: { base_url: { default: 'https://acme.inventory.localhost' } },
        },
      ],
      components: {
        securitySchemes: SECURITY_SCHEMES,
        schemas: ERROR_SCHEMAS,
        responses: RESPONSES,
        headers: HEADERS,
      } as never,
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      const rule = ruleFor(method, url, table) ?? { access: 'session' as const };
      const access = rule.access;
      const scope = requiredScope(access, method);
      const security =
        access === 'public'
          ? []
          : access === 'session'
            ? [{ sessionCookie: [] }]
            : [{ bearerToken: scope ? [scope] : [] }, { sessionCookie: [] }];
      const described = {
        ...(schema ?? {}),
        security,
        'x-access': typeof access === 'string' ? access : { scope },
      } as Record<string, unknown>;
      return { schema: described as typeof schema, url };
    },
    // Once, when the document is first built (then cached): what the route table implies.
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? (describeOperations(documentObject.openapiObject as never, table) as never)
        : documentObject.swaggerObject,
  });
  await app.register(swaggerUi, { routePrefix: DOCS });
  handle(app, OPENAPI_ROUTES.document, { schema: { hide: true } }, async () => app.swagger());
}
