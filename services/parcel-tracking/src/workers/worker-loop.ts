import { WorkerLoop, type Logger } from '@inventory/platform';

/**
 * Runs a worker's `runOnce` every `intervalMs`, one pass at a time (a pass never overlaps the
 * previous one), until stopped; stop waits for the pass in flight. The platform's worker loop
 * (ADR 0018) with one slot, whose look is the whole pass: a pass claims and runs batch after
 * batch of each instance's queue itself (TrackingRepository.claim), so the loop has nothing to
 * hold and only paces the passes. Tests call `runOnce` directly instead.
 */
export function startWorkerLoop(options: {
  name: string;
  runOnce: () => Promise<unknown>;
  intervalMs: number;
  logger: Logger;
}): { stop(): Promise<void> } {
  const { name, runOnce, intervalMs, logger } = options;
  const loop = new WorkerLoop<never>({
    logger,
    concurrency: 1,
    // Passes are paced, not backed off: the same wait after every pass.
    pollMs: intervalMs,
    idlePollMs: intervalMs,
    firstLookAfterPoll: true,
    refill: 'always',
    claim: async () => {
      try {
        await runOnce();
      } catch (error) {
        logger.warn({ err: error, worker: name }, 'worker pass failed');
      }
      return { items: [] };
    },
    start: () => [],
    claimFailed: 'worker pass failed',
    runFailed: 'worker pass failed',
    describe: () => ({ worker: name }),
  });
  loop.start();
  return { stop: () => loop.stop() };
}
