import type { Logger } from 'pino';
import { ConfigError } from '../config/load-config.js';
import { exitOnSignals, type Stoppable } from './shutdown.js';

/** What a bootstrap returns: something that stops, and the logger it reports through. */
export interface RunningProcess extends Stoppable {
  readonly logger: Logger;
}

/** EX_CONFIG: the environment is wrong, a restart will not help. */
export const EXIT_BAD_CONFIG = 78;
export const EXIT_FAILED_START = 1;

/**
 * The whole of every `src/main.ts`: start, then stop in order on SIGTERM/SIGINT
 * (exit 0; a second signal or a stop past `shutdownTimeoutMs` exits 1). A start
 * that fails exits at once: 78 for a bad environment (each bad variable named on
 * stderr), 1 for anything else (the stack on stderr, as no logger may exist yet).
 */
export async function runMain(
  start: () => Promise<RunningProcess>,
  options: { shutdownTimeoutMs?: number } = {},
): Promise<void> {
  let running: RunningProcess;
  try {
    running = await start();
  } catch (error) {
    const badConfig = error instanceof ConfigError;
    process.stderr.write(
      `${badConfig ? error.message : String((error as Error).stack ?? error)}\n`,
    );
    process.exit(badConfig ? EXIT_BAD_CONFIG : EXIT_FAILED_START);
  }
  exitOnSignals(running, running.logger, options.shutdownTimeoutMs);
}
