import type { FilterQuery } from 'mongoose';

/**
 * Every repository query goes through this: the tenant filter is added last, so
 * a caller-supplied `tenant_id` can never widen a query to another tenant.
 */
export function tenantFilter<T>(tenantId: string, filter: FilterQuery<T> = {}): FilterQuery<T> {
  if (!tenantId) throw new Error('tenant id is required for every tenant-scoped query');
  return { ...filter, tenant_id: tenantId } as FilterQuery<T>;
}

/**
 * `text` as a regular expression that matches it literally. Control characters are written as
 * `\xHH` escapes: MongoDB refuses a pattern holding a raw NUL byte (an error, not a match).
 */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(
    // eslint-disable-next-line no-control-regex -- escaping control characters is the point
    /[\u0000-\u001f]/g,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

export function isDuplicateKeyError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}
