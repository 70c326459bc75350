import type {
  FastifyInstance,
  RouteHandlerMethod,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify';
import { ruleFor, type RouteRule } from '../auth/route-access.js';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A route as the module that serves it declares it: where it answers (`method`, `url`, exactly
 * as Fastify registers it) and who may call it (its `RouteRule`). The route table is built from
 * these declarations (routes/route-table.ts), so a path is written once.
 */
export interface RouteDeclaration extends RouteRule {
  method: RouteMethod;
  url: string;
}

/** A module's routes, by name; `const` keeps each literal so a handler reads `ROUTES.create`. */
export function declareRoutes<const T extends Record<string, RouteDeclaration>>(routes: T): T {
  return routes;
}

/** Registers a declared route: the only way a route module adds one (lint: gateway/src). */
export function handle(
  app: FastifyInstance,
  route: RouteDeclaration,
  ...args: [RouteHandlerMethod] | [RouteShorthandOptions, RouteHandlerMethod]
): void {
  const [options, handler] = args.length === 1 ? [{}, args[0]] : args;
  const status = route.successStatus;
  const answer: RouteHandlerMethod = status
    ? function (request, reply) {
        // An error thrown by the handler still gets its own status from the error handler.
        void reply.code(status);
        return handler.call(this, request, reply);
      }
    : handler;
  app.route({ ...options, method: route.method, url: route.url, handler: answer });
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
    for (const { method, url, ...rule } of Object.values(group)) {
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
