import type { Logger } from '@inventory/platform';

/**
 * Runs a worker's `runOnce` every `intervalMs`, one pass at a time (a pass
 * never overlaps the previous one), until stopped; stop waits for the pass in
 * flight. Tests call `runOnce` directly instead.
 */
export function startWorkerLoop(
  name: string,
  runOnce: () => Promise<unknown>,
  intervalMs: number,
  logger: Logger,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runOnce()
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error, worker: name }, 'worker pass failed'),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
