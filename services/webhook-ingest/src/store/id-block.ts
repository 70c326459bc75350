import type { Connection } from 'mongoose';
import { nextSequence } from '@inventory/platform';

/**
 * Row ids handed out from blocks reserved in the shared counter (one `$inc` per block instead of
 * one per row, ADR 0224). Ids stay unique across replicas, since each block is reserved
 * atomically; they are no longer gap-free (a restart abandons the rest of its block) nor in
 * arrival order across replicas, and nothing relies on either: order is `received_at`'s.
 */
export class IdBlock {
  private next = 0;
  private end = 0;
  private refill?: Promise<void>;

  constructor(
    private readonly connection: Connection,
    private readonly counter: string,
    private readonly size = 64,
  ) {}

  async take(): Promise<number> {
    while (this.next >= this.end) {
      this.refill ??= this.reserve().finally(() => (this.refill = undefined));
      await this.refill;
    }
    return this.next++;
  }

  private async reserve(): Promise<void> {
    const first = await nextSequence(this.connection, this.counter, this.size);
    this.next = first;
    this.end = first + this.size;
  }
}
