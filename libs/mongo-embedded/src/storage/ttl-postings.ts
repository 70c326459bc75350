import { ExpiryQueue } from './expiry-queue.js';
import { appendIds, withId, withoutId, type Ids } from './id-postings.js';

/** Postings of one leading-field value: the value and its documents. */
interface Posting {
  value: unknown;
  ids: Ids;
}

/**
 * A TTL index's dates: the documents under each encoded leading-field value, and the dates
 * queued earliest first, so a sweep visits only the dates that came due.
 */
export class TtlPostings {
  private readonly byLeading = new Map<string, Posting>();
  private readonly queue = new ExpiryQueue();

  post(key: string, value: unknown, id: string): void {
    const entry = this.byLeading.get(key);
    if (!entry) {
      this.byLeading.set(key, { value, ids: id });
      // A key stands for one value, so its date is queued once, when the key first appears.
      if (value instanceof Date && Number.isFinite(value.getTime()))
        this.queue.push(value.getTime(), key);
    } else entry.ids = withId(entry.ids, id);
  }

  unpost(key: string, id: string): void {
    const entry = this.byLeading.get(key);
    if (!entry) return;
    const left = withoutId(entry.ids, id);
    if (left === undefined) this.byLeading.delete(key);
    else entry.ids = left;
  }

  /** The documents whose date is at or before the cutoff; the caller removes them. */
  expiredIds(cutoffMs: number): string[] {
    const out: string[] = [];
    for (const key of this.queue.takeUntil(cutoffMs)) {
      const entry = this.byLeading.get(key);
      if (entry) appendIds(out, entry.ids); // else removed since it was queued
    }
    return [...new Set(out)];
  }
}
