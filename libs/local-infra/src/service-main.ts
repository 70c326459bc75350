import { fileURLToPath } from 'node:url';
import { spawnUntilReady, type ManagedProcess } from './child-process.js';

/** The repository's root, from this file's place in it (src/ or dist/ of libs/local-infra). */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface SpawnServiceMainOptions {
  /** Merged over `process.env`. */
  env: NodeJS.ProcessEnv;
  /** Output that says the service is ready; default its gRPC server's start line. */
  readyPattern?: RegExp;
  /** Node's own arguments, before the loader's (e.g. `--cpu-prof`). */
  nodeArgs?: string[];
  /** Receives every output line. */
  onLine?: (line: string) => void;
  /** Default 60 s: a cold tsx start on a loaded machine is slow. */
  timeoutMs?: number;
}

/**
 * A service's `src/main.ts` (`entry`, from the repository's root, e.g.
 * `services/webhook-ingest/src/main.ts`) in a process of its own, resolved once it is ready.
 * Node itself with tsx as a loader, not the tsx CLI: that CLI runs the script in a child process
 * of its own, so a SIGKILL would hit the wrapper and leave the service running (and /proc/<pid>
 * would be the wrapper's CPU, not the service's). A compiled entry (`dist/main.js`, as the
 * production image runs it) runs with plain `node`.
 */
export function spawnServiceMain(
  entry: string,
  options: SpawnServiceMainOptions,
): Promise<ManagedProcess> {
  return spawnUntilReady({
    command: process.execPath,
    args: [
      ...(options.nodeArgs ?? []),
      ...(entry.endsWith('.js') ? [] : ['--conditions=development', '--import', 'tsx']),
      `${REPO_ROOT}${entry}`,
    ],
    readyPattern: options.readyPattern ?? /gRPC server listening/,
    timeoutMs: options.timeoutMs ?? 60_000,
    onLine: options.onLine,
    env: { ...process.env, ...options.env },
  });
}
