import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError, type FieldViolation } from '../grpc/errors.js';
import { currentContext, newRequestId, runWithContext } from '../logging/request-context.js';
import { GroupCommitQueue } from './group-commit-queue.js';

/** One item's answer in a batch RPC's reply: its answer, or its own refusal. */
export interface BatchItemResult<R> {
  answer?: R;
  error?: { code: number; reason: string; message: string; violations?: FieldViolation[] };
}

export interface BatchedCallsOptions<T, R> {
  /** The batch RPC: one result per item, in the items' order. */
  batch: (items: T[]) => Promise<Array<BatchItemResult<R>>>;
  /** The single RPC, for an item too large to share a batch. */
  single: (item: T) => Promise<R>;
  /** The item's size in bytes, as far as it counts against a gRPC message (its body). */
  sizeOf: (item: T) => number;
  /** Each key (a tenant) gets batches of its own, and the batch call runs as that tenant. */
  keyIsTenant?: boolean;
  /**
   * Each batch goes at the end of the event loop's turn, so calls made together share it
   * (`GroupCommitOptions.gatherTurn`, ADR 0746); by default the first call goes at once.
   */
  gatherTurn?: boolean;
}

/** Items above this go alone: 64 of them stay below 4 MiB, far under gRPC's 8 MiB messages. */
export const BATCHED_ITEM_MAX_BYTES = 64 * 1024;
const MAX_BATCH = 64;

/**
 * Single calls gathered into batch RPCs by group commit (ADRs 0226, 0227): the first goes at
 * once, those that arrive while it is in flight go together in the next batch, so a busy caller
 * pays one round trip for many and an idle one waits for nothing. One failure rule: each caller
 * gets its own answer, or its own refusal as the single call would have thrown it (an item with
 * neither is INTERNAL); a batch call that fails as a whole fails each of its items with its
 * error. A batch carries many callers' requests, so it gets a request id of its own.
 */
export class BatchedCalls<T, R> {
  private readonly queues = new Map<string, GroupCommitQueue<T, R | AppError>>();

  constructor(private readonly options: BatchedCallsOptions<T, R>) {}

  async call(item: T, key = ''): Promise<R> {
    if (this.options.sizeOf(item) > BATCHED_ITEM_MAX_BYTES) {
      // Alone, the call keeps its caller's request id.
      const caller = currentContext() ?? { requestId: newRequestId() };
      const context = this.options.keyIsTenant ? { ...caller, tenantId: key } : caller;
      return runWithContext(context, () => this.options.single(item));
    }
    let queue = this.queues.get(key);
    if (!queue) {
      queue = new GroupCommitQueue<T, R | AppError>(
        async (items) =>
          (
            await runWithContext(
              { requestId: newRequestId(), ...(this.options.keyIsTenant && { tenantId: key }) },
              () => this.options.batch(items),
            )
          ).map(itemAnswer),
        MAX_BATCH,
        { gatherTurn: this.options.gatherTurn ?? false },
      );
      this.queues.set(key, queue);
    }
    // The queue rejects an item whose answer is an Error: its refusal.
    return (await queue.add(item)) as R;
  }

  /** Refuses new calls and resolves once every call already made is answered. */
  async stop(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.stop()));
  }
}

function itemAnswer<R>(result: BatchItemResult<R>): R | AppError {
  if (result.error)
    return new AppError(
      result.error.code,
      result.error.reason,
      result.error.message,
      result.error.violations,
    );
  return result.answer ?? new AppError(GrpcStatus.INTERNAL, '', 'Internal error');
}
