/** The specification's scope table, for documentation (identity validates against its own copy). */
export const SCOPE_NAMES = [
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
];
