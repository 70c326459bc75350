import { forbiddenBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import { assertPermission, assertTokenScope } from './grants.js';
import type { AuthenticatedUser } from './types.js';

/**
 * Route access: what each route module declares beside its method and path
 * (`declareRoutes`, http/routes.ts); the table built from those declarations is
 * routes/route-table.ts. A route the table does not name cannot be registered.
 *
 * - `public`: no credential (health, login, inbound provider webhooks).
 * - `session`: web-app session only; tokens get 403.
 * - `any-token`: any valid token (or a session), no scope.
 * - `{ scope }`: a token needs that scope; sessions are checked on user permissions.
 *
 * `tenantless` routes answer on any Host (probes, OpenAPI); all others resolve
 * the tenant from Host first.
 */
export type RouteAccess =
  'public' | 'session' | 'any-token' | { scope: string } | { resource: string };

/**
 * `{ resource }` is the specification's rule 1 written once: GET/HEAD need
 * `<resource>:read`, POST/PUT/PATCH/DELETE need `<resource>:write`.
 */
export function requiredScope(access: RouteAccess, method: string): string | undefined {
  if (typeof access !== 'object') return undefined;
  if ('scope' in access) return access.scope;
  return ['GET', 'HEAD'].includes(method.toUpperCase())
    ? `${access.resource}:read`
    : `${access.resource}:write`;
}

export interface RouteRule {
  access: RouteAccess;
  tenantless?: boolean;
  /** The user permission a session (or the token's user) needs, when not implied by the scope. */
  permission?: string;
  /**
   * The status of a successful answer when it is not 200: set on the reply before the handler
   * runs (http/routes.ts `handle`) and documented from here (openapi/describe-operations.ts).
   */
  successStatus?: 201 | 202 | 204;
  /**
   * The route answers 422 (code form) for a state the service refuses, beyond any input it
   * declares (enrolling twice, redelivering to an inactive subscription): documented from here.
   * A route with a declared body or query documents 422 without it.
   */
  refusesState?: true;
  /**
   * Public routes only: requests per minute per client address, through the same rate limiter
   * (and headers, and 429) as tokens and sessions. The key is the route and the address.
   */
  perAddressPerMinute?: number;
  /**
   * The route creates something and takes an `Idempotency-Key` (http/idempotency.ts, ADR 0119):
   * a retry with the key answers the first answer again instead of creating a second thing.
   */
  idempotent?: true;
}

function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

export function ruleFor(
  method: string,
  url: string | undefined,
  table: Record<string, RouteRule>,
): RouteRule | undefined {
  if (!url) return undefined;
  // HEAD is served by the GET route and governed by its rule.
  return table[routeKey(method === 'HEAD' ? 'GET' : method, url)];
}

export const NOT_FOR_TOKENS = 'This endpoint is not available to API tokens.';

/** A token's access to the route: not a session-only route, its scope, then its user's permission. */
export function assertTokenAccess(
  rule: RouteRule,
  method: string,
  scopes: readonly string[],
  user: AuthenticatedUser,
): void {
  if (rule.access === 'session') throw new HttpError(403, forbiddenBody(NOT_FOR_TOKENS));
  const scope = requiredScope(rule.access, method);
  if (scope) assertTokenScope(scopes, scope);
  const permission = rule.permission ?? scope;
  if (permission) assertPermission(user, permission);
}

/** A session's access to the route: its user's permission, the one a token's scope would name. */
export function assertSessionAccess(
  rule: RouteRule,
  method: string,
  user: AuthenticatedUser,
): void {
  const permission = rule.permission ?? requiredScope(rule.access, method);
  if (permission) assertPermission(user, permission);
}
