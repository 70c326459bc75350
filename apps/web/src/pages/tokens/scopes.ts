import { SCOPES, type Scope } from '@inventory/access';

/** The specification's scope table, grouped by resource for the checkboxes. */
export function scopesByResource(): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const scope of SCOPES) {
    const [resource] = scope.split(':');
    groups.set(resource!, [...(groups.get(resource!) ?? []), scope]);
  }
  return [...groups.entries()];
}

/**
 * What each scope grants, in the specification's words (its "Grants" column): UI wording, typed
 * by the owner's scopes so a new scope does not compile without its line.
 */
export const SCOPE_GRANTS: Record<Scope, string> = {
  'orders:read': 'View sales orders and order lines',
  'orders:write': 'Create, update, cancel sales orders',
  'products:read': 'View products, SKUs, variants',
  'products:write': 'Create and update products',
  'inventory:read': 'View stock levels, allocations, reorder points',
  'inventory:write': 'Adjust inventory, transfer stock, reconcile counts',
  'customers:read': 'View customers',
  'customers:write': 'Create and update customers',
  'suppliers:read': 'View suppliers',
  'suppliers:write': 'Create and update suppliers',
  'purchase-orders:read': 'View purchase orders',
  'purchase-orders:write': 'Create, update, approve purchase orders',
  'warehouses:read': 'View warehouses and locations',
  'webhooks:read': 'Receive webhook subscription events (a subscription switched off)',
  'reports:read': 'View reports and analytics',
  'webhooks:manage': 'Create and delete webhook subscriptions',
};

/** The expiry choices of a new token, in days (null: never), as GitHub offers them. */
export const EXPIRY_PRESETS = [7, 30, 60, 90] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** "expires in 12 days", "expires today", "expired": how a token's expiry reads at a glance. */
export function expiryBadge(
  expiresAt: string | null,
  now: Date = new Date(),
): { text: string; level: 'ok' | 'soon' | 'expired' | 'never' } {
  if (!expiresAt) return { text: 'never expires', level: 'never' };
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return { text: 'expired', level: 'expired' };
  const days = Math.floor(left / DAY_MS);
  const text =
    days === 0 ? 'expires today' : days === 1 ? 'expires tomorrow' : `expires in ${days} days`;
  return { text, level: days < 7 ? 'soon' : 'ok' };
}

/** A token's scopes as a table cell reads them: sorted, or "none". */
export const scopesText = (scopes: readonly string[]) =>
  scopes.length ? [...scopes].sort().join(', ') : 'none';
