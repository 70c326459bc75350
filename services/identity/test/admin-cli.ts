import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const CLI = 'services/identity/src/cli/admin.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
export interface CliResult<T = any> {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when the command succeeded. */
  json: T;
  /** The JSON error object at the start of stderr, when it failed. */
  error: T;
}

/**
 * The real CLI in a child process, as `npm run admin --` runs it. `input` is written to its
 * standard input (a pipe, so never a terminal), which is then closed.
 */
export function admin(args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<CliResult> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--conditions=development', '--import', 'tsx', CLI, ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const parse = (text: string) => {
          const end = text.indexOf('\n}');
          try {
            return JSON.parse(end >= 0 ? text.slice(text.indexOf('{'), end + 2) : text);
          } catch {
            return undefined;
          }
        };
        done({
          code,
          stdout,
          stderr,
          json: code === 0 ? parse(stdout) : undefined,
          error: parse(stderr),
        });
      },
    );
    child.stdin!.end(input);
  });
}

/** A data directory without dev.json: the CLI cannot fall back on a developer's `npm start`. */
export const NO_DEV_FILE = {
  DEV_DATA_DIR: resolve(REPO_ROOT, 'services/identity/test/no-such-dir'),
};
