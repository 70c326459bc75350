import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendants } from './proc.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const TSX = ['--conditions=development', '--import', 'tsx'];

/**
 * Starts `node <tsx> <script> <args>` from the repository root and resolves on the first output
 * matching `ready`.
 */
export function startNodeScript(
  [script, ...args]: [string, ...string[]],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  nodeArgs: string[] = [],
  /** Sees every chunk the script writes, for as long as it runs (a log kept to a file). */
  onOutput?: (chunk: Buffer) => void,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX, ...nodeArgs, script, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      // stdin open: a baseline may be driven by lines (bench/lib/delivery-baseline.ts).
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let resolved = false;
    const onData = (chunk: Buffer) => {
      onOutput?.(chunk);
      if (resolved) return;
      output = (output + chunk.toString()).slice(-20_000);
      const match = ready.exec(output);
      if (match) {
        resolved = true;
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) =>
      reject(new Error(`${script} exited with ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

export const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve()
      : (child.once('exit', () => resolve()), child.kill('SIGINT')),
  );

/** What `.data/dev.json` tells a script about the system it launched. */
export interface DevFile {
  host: string;
  token: string;
  tenant_id: string;
  mongo_url: string;
  nats_url: string;
  provider_api_key: string;
}

export interface RunningSystem {
  dev: DevFile;
  gatewayUrl: string;
  /** Every process of the system by name (gateway, identity, …, redis, nats, mongo, launcher). */
  processes(): Record<string, number>;
  stop(): Promise<void>;
}

/** The part of the system a command line belongs to, from its script or binary. */
export function processName(cmdline: string): string {
  // From the sources (src/…ts, through tsx) or the build (dist/…js, DEV_RUN=compiled).
  const service = /services\/([\w-]+)\/(?:src|dist)\/main\.[jt]s/.exec(cmdline);
  if (service) return service[1]!;
  if (/gateway\/(?:src|dist)\/main\.[jt]s/.test(cmdline)) return 'gateway';
  if (/mongo-embedded\/(?:src|dist)\/cli/.test(cmdline)) return 'mongo';
  if (cmdline.includes('provider-sim')) return 'provider-sim';
  if (cmdline.includes('tools/dev/src/main.ts')) return 'launcher';
  if (/nats-server/.test(cmdline)) return 'nats';
  if (/redis-server/.test(cmdline)) return 'redis';
  return cmdline.split(' ')[0]!.split('/').pop() ?? 'other';
}

/** Whether a command line runs `pkg`'s entry point, from its sources or its build. */
export const runsPackage = (cmdline: string, pkg: string) =>
  new RegExp(`(^|/)${pkg}/(src|dist)/(cli/)?main\\.[jt]s`).test(cmdline);

/**
 * Compiles every package (`nx run-many -t build`) so `DEV_RUN=compiled` runs the current code;
 * nx's cache makes it a second or two when nothing changed.
 */
export function buildPackages(): void {
  const started = performance.now();
  const build = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', '--parallel=2', '--outputStyle=static'],
    {
      cwd: repoRoot,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0)
    throw new Error(
      `building the packages failed:\n${`${build.stdout}${build.stderr}`.slice(-3000)}`,
    );
  const seconds = Math.round((performance.now() - started) / 1000);
  process.stderr.write(`[bench] built the packages (nx run-many -t build) in ${seconds} s\n`);
}

/**
 * The system as `npm start` runs it (the launcher; every part its own process; logs at `warn`),
 * on ports from `portBase`, with a data directory of its own that `stop()` removes. The services,
 * the gateway and the embedded MongoDB run their compiled JavaScript with plain `node`, as the
 * production images do (`DEV_RUN=compiled`, built first), not their sources through tsx: tsx's
 * transform wraps every function it creates to keep its name and turns on source maps, costs
 * production does not pay (bench/README.md, "Compiled, as production runs it").
 */
export async function launchSystem(
  portBase: number,
  env: NodeJS.ProcessEnv = {},
  onOutput?: (chunk: Buffer) => void,
) {
  buildPackages();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-system-'));
  const gatewayPort = portBase + 80;
  const { child } = await startNodeScript(
    ['tools/dev/src/main.ts'],
    {
      DEV_PORT_BASE: String(portBase),
      DEV_GATEWAY_PORT: String(gatewayPort),
      DEV_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NO_COLOR: '1',
      // DEV_RUN=source npm run bench measures the sources through tsx instead, for comparison.
      DEV_RUN: process.env.DEV_RUN || 'compiled',
      ...env,
    },
    /\[dev\] ready:/,
    [],
    onOutput,
  ).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const system: RunningSystem = {
    dev: JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as DevFile,
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    processes: () => {
      const named: Record<string, number> = { launcher: child.pid! };
      for (const info of descendants(child.pid!)) {
        const name = processName(info.cmdline);
        named[name in named ? `${name}#${info.pid}` : name] = info.pid;
      }
      return named;
    },
    stop: async () => {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return system;
}
