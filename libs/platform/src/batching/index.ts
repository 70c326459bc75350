export { GroupCommitQueue, type GroupCommitOptions } from './group-commit-queue.js';
export {
  BATCHED_ITEM_MAX_BYTES,
  BatchedCalls,
  type BatchItemResult,
  type BatchedCallsOptions,
} from './batched-calls.js';
