import { compareBson } from './bson-order.js';

/**
 * One index entry, flat to spare an object per entry: the key's values in key-pattern order, then
 * the document's natural (insertion) position — the tiebreak between equal keys, like a RecordId —
 * then its id.
 */
export type KeyEntry = unknown[];

export const idOf = (e: KeyEntry): string => e[e.length - 1] as string;
export const positionOf = (e: KeyEntry): number => e[e.length - 2] as number;

/** A position in the structure: chunk and offset. `c === chunks.length` is the end. */
export interface Pos {
  c: number;
  i: number;
}

const MAX_CHUNK = 512;

/**
 * The entries of one index, kept sorted by (key in the pattern's directions, natural position)
 * under writes: a list of sorted chunks of at most 512 entries. Insert and delete are a binary
 * search plus a splice within one chunk; a scan walks the chunks in either direction; counting a
 * range sums chunk lengths instead of visiting entries.
 */
export class OrderedKeys {
  private chunks: KeyEntry[][] = [[]];
  private total = 0;

  constructor(private readonly dirs: number[]) {}

  get size(): number {
    return this.total;
  }

  /** Compares the first `bound.length` components of `key` with `bound` in index order. */
  comparePrefix(key: unknown[], bound: unknown[]): number {
    for (let i = 0; i < bound.length; i++) {
      const c = compareBson(key[i], bound[i]);
      if (c !== 0) return this.dirs[i] === 1 ? c : -c;
    }
    return 0;
  }

  private compareEntries(a: KeyEntry, b: KeyEntry): number {
    const m = this.dirs.length;
    for (let i = 0; i < m; i++) {
      const c = compareBson(a[i], b[i]);
      if (c !== 0) return this.dirs[i] === 1 ? c : -c;
    }
    const dn = (a[m] as number) - (b[m] as number);
    if (dn !== 0) return dn;
    const x = a[m + 1] as string;
    const y = b[m + 1] as string;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /**
   * Position of the first entry not before `entry` in (key, natural position, id) order. Loops
   * written out, no predicate closure: this runs for every index of every write.
   */
  private locate(entry: KeyEntry): Pos {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = chunks[mid]!;
      if (chunk.length > 0 && this.compareEntries(chunk[chunk.length - 1]!, entry) < 0)
        lo = mid + 1;
      else hi = mid;
    }
    const c = lo;
    const chunk = chunks[c]!;
    lo = 0;
    hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compareEntries(chunk[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return { c, i: lo };
  }

  private normalize(p: Pos): Pos {
    while (p.c < this.chunks.length && p.i >= this.chunks[p.c]!.length) p = { c: p.c + 1, i: 0 };
    return p;
  }

  insert(entry: KeyEntry): void {
    // Ever-growing keys (ObjectIds, ascending dates) land at the end: one comparison.
    const tail = this.chunks[this.chunks.length - 1]!;
    if (
      tail.length > 0 &&
      tail.length < MAX_CHUNK &&
      this.compareEntries(tail[tail.length - 1]!, entry) < 0
    ) {
      tail.push(entry);
      this.total++;
      return;
    }
    const { c, i } = this.locate(entry);
    const chunk = this.chunks[c]!;
    // Shift by hand: splice allocates a result array and is slower for one element.
    let j = chunk.length;
    chunk.push(entry);
    for (; j > i; j--) chunk[j] = chunk[j - 1]!;
    chunk[i] = entry;
    this.total++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(MAX_CHUNK >> 1));
  }

  /** Removes the entry equal to `probe` (same key, natural position and id); false when absent. */
  delete(probe: KeyEntry): boolean {
    const p = this.normalize(this.locate(probe));
    const chunk = this.chunks[p.c];
    if (!chunk || this.compareEntries(chunk[p.i]!, probe) !== 0) return false;
    chunk.splice(p.i, 1);
    this.total--;
    if (chunk.length === 0 && this.chunks.length > 1) this.chunks.splice(p.c, 1);
    return true;
  }

  /** First entry whose key prefix is at or after `bound` (after it, when `inclusive` is false). */
  lowerBound(bound: unknown[], inclusive: boolean): Pos {
    return this.firstPast(bound, !inclusive);
  }

  /** First entry past `bound` (at it, when `inclusive` is false): the end of a range. */
  upperBound(bound: unknown[], inclusive: boolean): Pos {
    return this.firstPast(bound, inclusive);
  }

  /**
   * First entry whose key prefix compares after `bound` (`strict`) or at/after it. Written out
   * without a predicate closure: this runs twice per interval of every query.
   */
  private firstPast(bound: unknown[], strict: boolean): Pos {
    const limit = strict ? 0 : -1;
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = chunks[mid]!;
      if (chunk.length > 0 && this.comparePrefix(chunk[chunk.length - 1]!, bound) <= limit)
        lo = mid + 1;
      else hi = mid;
    }
    const c = lo;
    const chunk = chunks[c]!;
    lo = 0;
    hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.comparePrefix(chunk[mid]!, bound) <= limit) lo = mid + 1;
      else hi = mid;
    }
    return this.normalize({ c, i: lo });
  }

  at(p: Pos): KeyEntry | undefined {
    return this.chunks[p.c]?.[p.i];
  }

  /** The position `k` entries after `p` (the end when fewer remain), a chunk at a time. */
  advance(p: Pos, k: number): Pos {
    let { c, i } = p;
    while (k > 0 && c < this.chunks.length) {
      const left = this.chunks[c]!.length - i;
      if (k < left) return { c, i: i + k };
      k -= left;
      c++;
      i = 0;
    }
    return this.normalize({ c, i });
  }

  /** The position `k` entries before `p` (the start when fewer precede it). */
  retreat(p: Pos, k: number): Pos {
    let { c, i } = p;
    while (k > 0) {
      if (i >= k) return { c, i: i - k };
      if (c === 0) return { c: 0, i: 0 };
      k -= i;
      c--;
      i = this.chunks[c]!.length;
    }
    return { c, i };
  }

  /** Number of entries in [from, to). */
  countBetween(from: Pos, to: Pos): number {
    if (to.c < from.c || (to.c === from.c && to.i <= from.i)) return 0;
    if (from.c === to.c) return to.i - from.i;
    let n = this.chunks[from.c]!.length - from.i;
    for (let c = from.c + 1; c < to.c; c++) n += this.chunks[c]!.length;
    return n + to.i;
  }

  /** Entries in [from, to), forwards (`dir` 1) or backwards from `to` (`dir` -1). */
  *walk(from: Pos, to: Pos, dir: 1 | -1): Generator<KeyEntry> {
    if (dir === 1) {
      for (let c = from.c; c <= to.c && c < this.chunks.length; c++) {
        const chunk = this.chunks[c]!;
        const end = c === to.c ? to.i : chunk.length;
        for (let i = c === from.c ? from.i : 0; i < end; i++) yield chunk[i]!;
      }
      return;
    }
    for (let c = Math.min(to.c, this.chunks.length - 1); c >= from.c; c--) {
      const chunk = this.chunks[c]!;
      const start = c === from.c ? from.i : 0;
      for (let i = (c === to.c ? to.i : chunk.length) - 1; i >= start; i--) yield chunk[i]!;
    }
  }

  /** Appends the entries in [from, to) to `out`, forwards (no generator: the hot path of look-ups). */
  collect(from: Pos, to: Pos, out: KeyEntry[]): void {
    for (let c = from.c; c <= to.c && c < this.chunks.length; c++) {
      const chunk = this.chunks[c]!;
      const end = c === to.c ? to.i : chunk.length;
      for (let i = c === from.c ? from.i : 0; i < end; i++) out.push(chunk[i]!);
    }
  }

  /** Every entry in index order. */
  all(): Generator<KeyEntry> {
    return this.walk({ c: 0, i: 0 }, { c: this.chunks.length, i: 0 }, 1);
  }
}
