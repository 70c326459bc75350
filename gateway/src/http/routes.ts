import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify';
import { ruleFor, type RouteRule } from '../auth/route-access.js';
import { IDEMPOTENCY_HEADER_SCHEMA } from './idempotency.js';
import { inputSchema, readInput, type InputOf, type RouteInput } from './route-input.js';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A route as the module that serves it declares it: where it answers (`method`, `url`, exactly
 * as Fastify registers it), who may call it (its `RouteRule`) and what it reads (`input`: path
 * parameters, body fields, query parameters; ADR 0015). The route table is built from these
 * declarations (routes/route-table.ts), so a path is written once.
 */
export interface RouteDeclaration extends RouteRule {
  method: RouteMethod;
  url: string;
  input?: RouteInput;
}

/** A route's handler: the request's declared input arrives read, checked and typed. */
export type RouteHandler<R extends RouteDeclaration> = (
  request: FastifyRequest,
  reply: FastifyReply,
  input: InputOf<R['input']>,
) => unknown;

/**
 * Schemas are documentation and checks are the declared input's (Laravel's wording, not Ajv's),
 * and answers are serialised as they are built, never cut to a documented shape.
 */
const NO_SCHEMA_CHECKS = {
  validatorCompiler: () => () => true,
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
} as const;

/** A module's routes, by name; `const` keeps each literal so a handler reads `ROUTES.create`. */
export function declareRoutes<const T extends Record<string, RouteDeclaration>>(routes: T): T {
  return routes;
}

/**
 * Registers a declared route: the only way a route module adds one (lint: gateway/src). The
 * declared input is read before the handler runs and documented as the route's schema.
 */
export function handle<R extends RouteDeclaration>(
  app: FastifyInstance,
  route: R,
  ...args: [RouteHandler<R>] | [RouteShorthandOptions, RouteHandler<R>]
): void {
  const [options, handler] = args.length === 1 ? [{}, args[0]] : args;
  refuseUndeclaredParams(route);
  const status = route.successStatus;
  const schema = {
    ...inputSchema(route.input),
    // Documented here, read and checked by the idempotency hook (http/idempotency.ts).
    ...(route.idempotent ? { headers: IDEMPOTENCY_HEADER_SCHEMA } : {}),
    ...options.schema,
  };
  app.route({
    ...options,
    ...NO_SCHEMA_CHECKS,
    schema,
    method: route.method,
    url: route.url,
    handler(request, reply) {
      const input = readInput(request, route.input);
      // An error thrown by the handler still gets its own status from the error handler.
      if (status) void reply.code(status);
      return handler(request, reply, input);
    },
  });
}

/** `/things/:id/parts/*` → `['id', '*']`. */
export function pathParamsOf(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((match) => match[1] ?? '*');
}

/**
 * A path parameter the declaration does not name would reach the handler unchecked and
 * undocumented: such a route fails the start, as an undeclared route does.
 */
function refuseUndeclaredParams(route: RouteDeclaration): void {
  const declared = Object.keys(route.input?.params ?? {});
  const missing = pathParamsOf(route.url).filter((name) => !declared.includes(name));
  if (missing.length > 0)
    throw new Error(
      `Route ${route.method} ${route.url} does not declare its path parameters: ${missing.join(', ')}.`,
    );
}

/**
 * The route table: each declaration's rule keyed `METHOD /url`. Two declarations of one key are a
 * mistake (two modules serving one path, or one access written twice), refused at start-up.
 */
export function routeTableOf(
  ...groups: Array<Record<string, RouteDeclaration>>
): Record<string, RouteRule> {
  const table: Record<string, RouteRule> = {};
  for (const group of groups)
    for (const { method, url, input: _input, ...rule } of Object.values(group)) {
      const key = `${method} ${url}`;
      if (key in table) throw new Error(`Route ${key} is declared twice.`);
      table[key] = rule;
    }
  return table;
}

/**
 * Refuses, at registration, any route the table does not name: a route added with `app.get()`
 * and no declaration fails the start instead of being served closed-to-tokens by default.
 */
export function refuseUndeclaredRoutes(
  app: FastifyInstance,
  table: Record<string, RouteRule>,
): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      if (!ruleFor(String(method), route.url, table))
        throw new Error(`Route ${String(method)} ${route.url} is not declared in the route table.`);
  });
}
