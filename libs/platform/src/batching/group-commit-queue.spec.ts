import { describe, expect, it, vi } from 'vitest';
import { GroupCommitQueue } from './group-commit-queue.js';

/** A writer whose writes finish when told to, recording each batch it was given. */
function gatedWriter<T, R>(answer: (item: T) => R) {
  const batches: T[][] = [];
  const gates: Array<{ release: () => void; fail: (error: unknown) => void }> = [];
  const write = (batch: T[]) => {
    batches.push(batch);
    return new Promise<R[]>((resolve, reject) =>
      gates.push({ release: () => resolve(batch.map(answer)), fail: reject }),
    );
  };
  return { batches, gates, write };
}

/** Lets every promise reaction already queued run (no timer: the microtask queue drains). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('GroupCommitQueue', () => {
  it('writes the first item at once and the items that arrive meanwhile together, in order', async () => {
    const writer = gatedWriter((item: number) => item * 10);
    const queue = new GroupCommitQueue(writer.write);
    const first = queue.add(1);
    expect(writer.batches).toEqual([[1]]);
    const rest = [2, 3, 4].map((item) => queue.add(item));
    // Nothing more is written while the first batch is in flight.
    await settled();
    expect(writer.batches).toEqual([[1]]);
    writer.gates[0]!.release();
    expect(await first).toBe(10);
    await settled();
    expect(writer.batches).toEqual([[1], [2, 3, 4]]);
    writer.gates[1]!.release();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('splits a long queue into batches of at most maxBatch, written one after another', async () => {
    const writer = gatedWriter((item: string) => item);
    const queue = new GroupCommitQueue(writer.write, 2);
    const all = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => queue.add(item));
    for (let n = 0; n < 4; n++) {
      await settled();
      writer.gates[n]!.release();
    }
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(writer.batches).toEqual([['a'], ['b', 'c'], ['d', 'e'], ['f']]);
  });

  it('rejects every waiter of a failed batch with its error, and goes on with the next batch', async () => {
    const writer = gatedWriter((item: number) => item);
    const queue = new GroupCommitQueue(writer.write);
    const first = queue.add(1);
    const failing = [2, 3].map((item) => queue.add(item));
    writer.gates[0]!.release();
    await first;
    await settled();
    const later = queue.add(4);
    writer.gates[1]!.fail(new Error('write failed'));
    for (const waiter of failing) await expect(waiter).rejects.toThrow('write failed');
    await settled();
    writer.gates[2]!.release();
    expect(await later).toBe(4);
    expect(writer.batches).toEqual([[1], [2, 3], [4]]);
  });

  it('rejects the batch when the writer answers a different number of items', async () => {
    const queue = new GroupCommitQueue(async (batch: number[]) => batch.slice(1));
    await expect(queue.add(1)).rejects.toThrow('a batch of 1 got 0 answers');
  });

  it('on stop, writes what was added before and refuses what comes after', async () => {
    const writer = gatedWriter((item: number) => item);
    const queue = new GroupCommitQueue(writer.write);
    const queued = [1, 2, 3].map((item) => queue.add(item));
    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await expect(queue.add(4)).rejects.toThrow('stopped');
    writer.gates[0]!.release();
    await settled();
    expect(stopped).toBe(false);
    expect(queue.pending).toBe(1);
    writer.gates[1]!.release();
    await stopping;
    expect(await Promise.all(queued)).toEqual([1, 2, 3]);
    expect(queue.pending).toBe(0);
    expect(writer.batches).toEqual([[1], [2, 3]]);
  });

  it('resolves each waiter when a queue without answers wrote its batch', async () => {
    const written: string[][] = [];
    const queue = new GroupCommitQueue(async (batch: string[]) => void written.push(batch));
    const waiters: Array<Promise<void>> = ['a', 'b'].map((item) => queue.add(item));
    expect(await Promise.all(waiters)).toEqual([undefined, undefined]);
    expect(written).toEqual([['a'], ['b']]);
  });

  it('with gatherTurn, writes the items added in one turn of the loop as one batch', async () => {
    const writer = gatedWriter((item: number) => item * 10);
    const queue = new GroupCommitQueue(writer.write, 256, { gatherTurn: true });
    const first = queue.add(1);
    // Added by promise reactions of the same turn, as the items of one batch RPC fanned out.
    const rest = Promise.resolve().then(() => [2, 3].map((item) => queue.add(item)));
    expect(writer.batches).toEqual([]);
    await settled();
    expect(writer.batches).toEqual([[1, 2, 3]]);
    const later = [4, 5].map((item) => queue.add(item));
    writer.gates[0]!.release();
    expect([await first, ...(await Promise.all(await rest))]).toEqual([10, 20, 30]);
    await settled();
    expect(writer.batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    writer.gates[1]!.release();
    expect(await Promise.all(later)).toEqual([40, 50]);
    expect(queue.pending).toBe(0);
  });

  it('with gatherTurn, goes on under fake timers (the turn is not a timer of the test)', async () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout'] });
    try {
      const queue = new GroupCommitQueue(async (batch: number[]) => batch, 256, {
        gatherTurn: true,
      });
      expect(await Promise.all([queue.add(1), queue.add(2)])).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops at once when nothing is queued', async () => {
    const queue = new GroupCommitQueue(async (batch: number[]) => batch);
    await queue.stop();
    await expect(queue.add(1)).rejects.toThrow('stopped');
  });
});
