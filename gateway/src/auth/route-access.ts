/**
 * The route table: every route's access, in one place. A route missing here is
 * closed to tokens (deny by default): a token gets 403 "This endpoint is not
 * available to API tokens." and only a web session may call it.
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
}

/** Keyed by `METHOD /route/pattern` exactly as registered with Fastify. */
export const ROUTE_TABLE: Record<string, RouteRule> = {
  'GET /healthz': { access: 'public', tenantless: true },
  'GET /readyz': { access: 'public', tenantless: true },

  // Identity (issue #4): sign-in, the current user, 2FA and token management.
  'GET /api/openapi.json': { access: 'public', tenantless: true },
  'GET /api/docs': { access: 'public', tenantless: true },
  'GET /api/docs/': { access: 'public', tenantless: true },
  'GET /api/docs/*': { access: 'public', tenantless: true },
  'GET /api/docs/json': { access: 'public', tenantless: true },
  'GET /api/docs/yaml': { access: 'public', tenantless: true },
  'GET /api/docs/static/*': { access: 'public', tenantless: true },
  // Swagger UI's own page script and index redirect: without them the docs page renders blank.
  'GET /api/docs/static/index.html': { access: 'public', tenantless: true },
  'GET /api/docs/static/swagger-initializer.js': { access: 'public', tenantless: true },
  'POST /auth/login': { access: 'public' },
  'POST /auth/logout': { access: 'session' },
  'GET /api/user': { access: 'any-token' },
  'POST /api/user/two-factor': { access: 'session' },
  'POST /api/user/two-factor/confirm': { access: 'session' },
  'DELETE /api/user/two-factor': { access: 'session' },
  'GET /api/personal-access-tokens': { access: 'session' },
  'POST /api/personal-access-tokens': { access: 'session' },
  'PATCH /api/personal-access-tokens/:id': { access: 'session' },
  'DELETE /api/personal-access-tokens/:id': { access: 'session' },
  'GET /api/personal-access-tokens/:id/requests': { access: 'session' },
  'GET /api/personal-access-tokens/:id/usage': { access: 'session' },

  // Parcel tracking (issue #5): any valid token, no scope (spec Authentication rule 9).
  'POST /api/integrations/parcel-tracking/test': { access: 'any-token' },
  'POST /api/integrations/parcel-tracking/instances': { access: 'any-token' },
  'GET /api/integrations/parcel-tracking/instances/:instance': { access: 'any-token' },
  'PATCH /api/integrations/parcel-tracking/instances/:instance': { access: 'any-token' },
  'DELETE /api/integrations/parcel-tracking/instances/:instance': { access: 'any-token' },
  'GET /api/integrations/parcel-tracking/instances/:instance/trackable-channels': {
    access: 'any-token',
  },
  'GET /api/integrations/parcel-tracking/instances/:instance/activity': { access: 'any-token' },
  // In-app admin alerts (issue #12, ADR 0302): the web app only, for users holding alerts:view.
  'GET /api/alerts': { access: 'session', permission: 'alerts:view' },
  'POST /api/alerts/:id/read': { access: 'session', permission: 'alerts:view' },
  'POST /api/alerts/read-all': { access: 'session', permission: 'alerts:view' },
  'GET /api/integrations/parcel-tracking/instances/:instance/trackings': { access: 'any-token' },
  'GET /api/integrations/parcel-tracking/instances/:instance/webhooks': { access: 'any-token' },
  // Inbound provider webhooks: the token in the path is the credential.
  'POST /webhooks/parcel-tracking/:token': { access: 'public' },

  // Outbound webhook subscriptions (issue #14): scope webhooks:manage, and the user's permission
  // of the same name (ADR 0101); each event also needs its catalog read scope (ADR 0403).
  'POST /api/webhook-subscriptions': { access: { scope: 'webhooks:manage' } },
  'GET /api/webhook-subscriptions': { access: { scope: 'webhooks:manage' } },
  'GET /api/webhook-subscriptions/:id': { access: { scope: 'webhooks:manage' } },
  'PATCH /api/webhook-subscriptions/:id': { access: { scope: 'webhooks:manage' } },
  'DELETE /api/webhook-subscriptions/:id': { access: { scope: 'webhooks:manage' } },
  'POST /api/webhook-subscriptions/:id/rotate-secret': { access: { scope: 'webhooks:manage' } },
  'GET /api/webhook-subscriptions/:id/deliveries': { access: { scope: 'webhooks:manage' } },
  'POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver': {
    access: { scope: 'webhooks:manage' },
  },
  'POST /api/webhook-subscriptions/:id/test': { access: { scope: 'webhooks:manage' } },
  // Listings seen by path (issue #15), from the catalog read models. Products follow rule 1
  // (`products:read` for GET); purchase invoices take the purchase area's read scope (ADR 0503).
  'GET /api/v2/products': { access: { resource: 'products' } },
  'GET /api/purchase-invoices': { access: { scope: 'purchase-orders:read' } },

  // The web app's static files (issue #17): the page is public on each tenant host; the API
  // calls it makes carry the session cookie and the CSRF token.
  'GET /app': { access: 'public' },
  'GET /app/*': { access: 'public' },
};

export function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url}`;
}

export function ruleFor(
  method: string,
  url: string | undefined,
  table: Record<string, RouteRule> = ROUTE_TABLE,
): RouteRule | undefined {
  if (!url) return undefined;
  // HEAD is served by the GET route and governed by its rule.
  return table[routeKey(method === 'HEAD' ? 'GET' : method, url)];
}
