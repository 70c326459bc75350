import type { Logger } from 'pino';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits. A second signal, or a stop
 * that outlasts `timeoutMs`, exits at once with a non-zero code.
 */
export function exitOnSignals(target: Stoppable, logger: Logger, timeoutMs = 15_000): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    target.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/** Stops parts in the given order, continuing past failures, and reports the first. */
export async function stopAll(parts: Array<(() => Promise<unknown>) | undefined>): Promise<void> {
  let firstError: unknown;
  for (const part of parts) {
    if (!part) continue;
    try {
      await part();
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError) throw firstError;
}
