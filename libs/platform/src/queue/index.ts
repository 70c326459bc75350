export {
  emptyLease,
  LeasedQueue,
  NO_LEASE,
  unleasedAt,
  type ClaimRequest,
  type Finish,
  type Holder,
  type Leased,
  type LeasedQueueDefinition,
  type QueueScope,
  type TenantKey,
} from './leased-queue.js';
export { WorkerLoop, type WorkerLoopOptions } from './worker-loop.js';
export { BackgroundJobs, type BackgroundJobsOptions, type JobControl } from './background-jobs.js';
