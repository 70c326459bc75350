import { isDuplicateKeyError } from '@inventory/platform';

/**
 * Stores a row once per unique key (an activity's source id, an alert's key): a row already
 * there is returned unchanged, also when a concurrent insert wins the race, since the unique
 * index refuses the second and the winner is read back.
 */
export async function insertOnce<Row>(steps: {
  find: () => Promise<Row | null>;
  build: () => Promise<Row>;
  insert: (row: Row) => Promise<void>;
}): Promise<{ row: Row; created: boolean }> {
  const existing = await steps.find();
  if (existing) return { row: existing, created: false };
  const row = await steps.build();
  try {
    await steps.insert(row);
    return { row, created: true };
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const winner = await steps.find();
    if (!winner) throw error;
    return { row: winner, created: false };
  }
}
