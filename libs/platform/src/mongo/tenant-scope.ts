import type { FilterQuery } from 'mongoose';

/**
 * Every repository query goes through this: the tenant filter is added last, so
 * a caller-supplied `tenant_id` can never widen a query to another tenant.
 */
export function tenantFilter<T>(tenantId: string, filter: FilterQuery<T> = {}): FilterQuery<T> {
  if (!tenantId) throw new Error('tenant id is required for every tenant-scoped query');
  return { ...filter, tenant_id: tenantId } as FilterQuery<T>;
}

/** Escapes user text for a `$regex` substring match. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}
