import { status as GrpcStatus } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { AppError } from '../grpc/errors.js';
import { currentContext, runWithContext } from '../logging/request-context.js';
import { BATCHED_ITEM_MAX_BYTES, BatchedCalls, type BatchItemResult } from './batched-calls.js';

interface Item {
  text: string;
  bytes?: number;
}

/** A batch RPC answering when told to, recording each batch and the context it ran in. */
function gatedService(answer: (item: Item) => BatchItemResult<string>, gatherTurn = false) {
  const batches: Array<{ texts: string[]; tenantId?: string; requestId: string }> = [];
  const singles: Array<{ text: string; tenantId?: string; requestId: string }> = [];
  const gates: Array<{ release: () => void; fail: (error: unknown) => void }> = [];
  const calls = new BatchedCalls<Item, string>({
    batch: (items) => {
      const context = currentContext()!;
      batches.push({
        texts: items.map((item) => item.text),
        tenantId: context.tenantId,
        requestId: context.requestId,
      });
      return new Promise((resolve, reject) =>
        gates.push({ release: () => resolve(items.map(answer)), fail: reject }),
      );
    },
    single: (item) => {
      const context = currentContext()!;
      singles.push({ text: item.text, tenantId: context.tenantId, requestId: context.requestId });
      return Promise.resolve(`alone:${item.text}`);
    },
    sizeOf: (item) => item.bytes ?? item.text.length,
    keyIsTenant: true,
    gatherTurn,
  });
  return { calls, batches, singles, gates };
}

const settled = () => new Promise<void>((resolve) => setImmediate(resolve));
const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error) => error,
  );

describe('BatchedCalls', () => {
  it('sends the first call at once and those made meanwhile together, per tenant and as it', async () => {
    const service = gatedService((item) => ({ answer: item.text.toUpperCase() }));
    const first = service.calls.call({ text: 'a' }, 'tenant-1');
    const more = [
      service.calls.call({ text: 'b' }, 'tenant-1'),
      service.calls.call({ text: 'c' }, 'tenant-1'),
    ];
    const other = service.calls.call({ text: 'z' }, 'tenant-2');
    await settled();
    expect(service.batches.map(({ texts, tenantId }) => ({ texts, tenantId }))).toEqual([
      { texts: ['a'], tenantId: 'tenant-1' },
      { texts: ['z'], tenantId: 'tenant-2' },
    ]);
    service.gates[0]!.release();
    service.gates[1]!.release();
    expect(await first).toBe('A');
    expect(await other).toBe('Z');
    await settled();
    expect(service.batches[2]).toMatchObject({ texts: ['b', 'c'], tenantId: 'tenant-1' });
    service.gates[2]!.release();
    expect(await Promise.all(more)).toEqual(['B', 'C']);
    // Each batch is its own request.
    expect(new Set(service.batches.map((batch) => batch.requestId)).size).toBe(3);
  });

  it('with gatherTurn, sends the calls made in one turn of the loop as one batch per tenant', async () => {
    const service = gatedService((item) => ({ answer: item.text.toUpperCase() }), true);
    const calls = [
      service.calls.call({ text: 'a' }, 'tenant-1'),
      service.calls.call({ text: 'z' }, 'tenant-2'),
      service.calls.call({ text: 'b' }, 'tenant-1'),
    ];
    expect(service.batches).toEqual([]);
    await settled();
    expect(service.batches.map(({ texts, tenantId }) => ({ texts, tenantId }))).toEqual([
      { texts: ['a', 'b'], tenantId: 'tenant-1' },
      { texts: ['z'], tenantId: 'tenant-2' },
    ]);
    service.gates.forEach((gate) => gate.release());
    expect(await Promise.all(calls)).toEqual(['A', 'Z', 'B']);
  });

  it("gives each caller its own refusal as the single call's error, and INTERNAL for an item without an answer", async () => {
    const service = gatedService((item) =>
      item.text === 'refused'
        ? {
            error: {
              code: GrpcStatus.NOT_FOUND,
              reason: 'not_found',
              message: 'No such row.',
              violations: [{ field: 'text', description: 'unknown' }],
            },
          }
        : item.text === 'silent'
          ? {}
          : { answer: item.text },
    );
    const blocker = service.calls.call({ text: 'first' }, 't');
    const answers = ['ok', 'refused', 'silent'].map((text) =>
      refusalOf(service.calls.call({ text }, 't')),
    );
    service.gates[0]!.release();
    await blocker;
    await settled();
    service.gates[1]!.release();
    const [ok, refused, silent] = await Promise.all(answers);
    expect(ok).toBeUndefined();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: GrpcStatus.NOT_FOUND,
      reason: 'not_found',
      message: 'No such row.',
      fieldViolations: [{ field: 'text', description: 'unknown' }],
    });
    expect(silent).toMatchObject({ code: GrpcStatus.INTERNAL, message: 'Internal error' });
  });

  it('fails every item of a batch whose call fails as a whole, with its error', async () => {
    const service = gatedService((item) => ({ answer: item.text }));
    const blocker = service.calls.call({ text: 'first' }, 't');
    const answers = ['x', 'y'].map((text) => refusalOf(service.calls.call({ text }, 't')));
    service.gates[0]!.release();
    await blocker;
    await settled();
    const unavailable = new AppError(GrpcStatus.UNAVAILABLE, 'down', 'Not answering.');
    service.gates[1]!.fail(unavailable);
    expect(await Promise.all(answers)).toEqual([unavailable, unavailable]);
  });

  it("sends an item too large to share a batch alone, with its caller's request id", async () => {
    const service = gatedService((item) => ({ answer: item.text }));
    const answer = await runWithContext({ requestId: 'caller-request' }, () =>
      service.calls.call({ text: 'big', bytes: BATCHED_ITEM_MAX_BYTES + 1 }, 'tenant-9'),
    );
    expect(answer).toBe('alone:big');
    expect(service.singles).toEqual([
      { text: 'big', tenantId: 'tenant-9', requestId: 'caller-request' },
    ]);
    expect(service.batches).toEqual([]);
    // At the limit it still goes in a batch.
    const atLimit = service.calls.call({ text: 'edge', bytes: BATCHED_ITEM_MAX_BYTES }, 'tenant-9');
    service.gates[0]!.release();
    expect(await atLimit).toBe('edge');
  });

  it('refuses calls once stopped, after answering those already made', async () => {
    const service = gatedService((item) => ({ answer: item.text }));
    const pending = service.calls.call({ text: 'last' }, 't');
    const stopped = service.calls.stop();
    service.gates[0]!.release();
    await stopped;
    expect(await pending).toBe('last');
    await expect(service.calls.call({ text: 'late' }, 't')).rejects.toThrow(/stopped/);
  });
});
