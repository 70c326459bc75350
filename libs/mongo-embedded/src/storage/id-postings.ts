/** The documents under one key: a lone id (the common case: unique keys, dates) or a Set. */
export type Ids = string | Set<string>;

/** `ids` with `id` added (a Set grows in place). */
export function withId(ids: Ids | undefined, id: string): Ids {
  if (ids === undefined || ids === id) return id;
  if (typeof ids === 'string') return new Set([ids, id]);
  return ids.add(id);
}

export const holds = (ids: Ids, id: string): boolean =>
  typeof ids === 'string' ? ids === id : ids.has(id);

/** `ids` without `id`; undefined once none is left (a Set shrinks in place). */
export function withoutId(ids: Ids, id: string): Ids | undefined {
  if (typeof ids === 'string') return ids === id ? undefined : ids;
  ids.delete(id);
  return ids.size === 0 ? undefined : ids;
}

export function appendIds(out: string[], ids: Ids): void {
  if (typeof ids === 'string') out.push(ids);
  // Not push(...ids): spreading a posting of a few hundred thousand ids overflows the stack.
  else for (const id of ids) out.push(id);
}
