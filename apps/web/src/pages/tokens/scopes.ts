/** The specification's scope table, grouped by resource for the checkboxes. */
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
] as const;

export function scopesByResource(): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const scope of SCOPES) {
    const [resource] = scope.split(':');
    groups.set(resource!, [...(groups.get(resource!) ?? []), scope]);
  }
  return [...groups.entries()];
}

export const isPrivileged = (scope: string) => /:(write|manage)$/.test(scope);

export interface Token {
  id: number;
  name: string;
  scopes: string[];
  ip_allowlist: string[];
  rate_limit_per_minute: number | null;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** The 50-active-token limit of the specification (Authentication rule 4). */
export const TOKEN_LIMIT = 50;
