/**
 * The specification's scope table, and `webhooks:read` beside it (the platform's own webhook
 * events, ADR 0413); nothing else is a scope. The one definition: identity validates against it,
 * the gateway documents it in OpenAPI, the tests use it.
 */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'products:read',
  'products:write',
  'inventory:read',
  'inventory:write',
  'customers:read',
  'customers:write',
  'suppliers:read',
  'suppliers:write',
  'purchase-orders:read',
  'purchase-orders:write',
  'warehouses:read',
  'reports:read',
  'webhooks:manage',
  // Not in the specification's table: receiving webhook_subscription.deactivated (ADR 0413).
  'webhooks:read',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN = new Set<string>(SCOPES);

export function isKnownScope(scope: string): scope is Scope {
  return KNOWN.has(scope);
}

/** Scopes whose addition to an existing token needs the password (and 2FA code). */
export function isElevatedScope(scope: string): boolean {
  return scope.endsWith(':write') || scope.endsWith(':manage');
}

/** Elevated scopes in `next` that `current` does not hold. */
export function addedElevatedScopes(current: string[], next: string[]): string[] {
  const held = new Set(current);
  return next.filter((scope) => !held.has(scope) && isElevatedScope(scope));
}

/** The in-app admin alerts (ADR 0302): a session user needs it to see and mark alerts. */
export const ALERTS_PERMISSION = 'alerts:view';

/** Setting the tenant's token policy (ADR 0120): a session user needs it. */
export const TOKEN_POLICY_PERMISSION = 'tokens:govern';

/** Permissions the web app needs that no token scope grants (session-only routes). */
export const SESSION_PERMISSIONS = [ALERTS_PERMISSION, TOKEN_POLICY_PERMISSION] as const;

/**
 * Permissions share the scopes' names (see docs/decisions/0101-permission-model.md), plus the
 * session-only ones: an owner holds every permission, anyone else the list on their user record.
 */
export const PERMISSIONS: readonly string[] = [...SCOPES, ...SESSION_PERMISSIONS];

export function userHasPermission(
  user: { is_owner: boolean; permissions: string[] },
  permission: string,
): boolean {
  return user.is_owner || user.permissions.includes(permission);
}
