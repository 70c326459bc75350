/** One item of a batch call: its answer, or what the single call would have thrown. */
export type BatchItem<T> = { answer: T } | { error: unknown };

/**
 * Runs `each` for every item and keeps each item's failure as its own result, answered at the
 * gRPC boundary as the single call would be (`batchItemError`): one item's failure never fails
 * the others, whose answers may already be recorded.
 */
export async function perItem<I, T>(
  items: I[],
  each: (item: I) => Promise<T>,
): Promise<Array<BatchItem<T>>> {
  const settled = await Promise.allSettled(items.map(each));
  return settled.map((result) =>
    result.status === 'fulfilled' ? { answer: result.value } : { error: result.reason },
  );
}
