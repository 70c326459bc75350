import { AppError } from '@inventory/platform';

/** One item of a batch call: its answer, or the refusal the single call would have thrown. */
export type BatchItem<T> = { answer: T } | { error: AppError };

/**
 * Runs `each` for every item and keeps each item's refusal (an AppError) as its own result, as
 * the single call would have answered it; anything else (the database failed) fails the batch,
 * so the caller retries every item, as it would have retried each single call.
 */
export async function perItem<I, T>(
  items: I[],
  each: (item: I) => Promise<T>,
): Promise<Array<BatchItem<T>>> {
  const settled = await Promise.allSettled(items.map(each));
  return settled.map((result) => {
    if (result.status === 'fulfilled') return { answer: result.value };
    if (result.reason instanceof AppError) return { error: result.reason };
    throw result.reason;
  });
}
