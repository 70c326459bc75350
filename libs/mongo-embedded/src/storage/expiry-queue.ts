interface Pending {
  atMs: number;
  key: string;
}

/**
 * The dates a TTL index holds, earliest first (a binary min-heap), so each sweep
 * touches only what has expired instead of every distinct date in the index.
 * Entries are never removed early: a key deleted or re-dated since it was queued
 * is checked against the index when it comes up, and skipped.
 */
export class ExpiryQueue {
  private readonly heap: Pending[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(atMs: number, key: string): void {
    const heap = this.heap;
    heap.push({ atMs, key });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.atMs <= atMs) break;
      [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
      i = parent;
    }
  }

  /** Removes and returns the keys queued at or before `cutoffMs`. */
  takeUntil(cutoffMs: number): string[] {
    const keys: string[] = [];
    while (this.heap.length > 0 && this.heap[0]!.atMs <= cutoffMs) keys.push(this.pop().key);
    return keys;
  }

  private pop(): Pending {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && heap[left]!.atMs < heap[smallest]!.atMs) smallest = left;
      if (right < heap.length && heap[right]!.atMs < heap[smallest]!.atMs) smallest = right;
      if (smallest === i) return top;
      [heap[smallest], heap[i]] = [heap[i]!, heap[smallest]!];
      i = smallest;
    }
  }
}
