import { spawn, type ChildProcess } from 'node:child_process';
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
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TSX, ...nodeArgs, script, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let resolved = false;
    const onData = (chunk: Buffer) => {
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
  const service = /services\/([\w-]+)\/src\/main\.ts/.exec(cmdline);
  if (service) return service[1]!;
  if (cmdline.includes('gateway/src/main.ts')) return 'gateway';
  if (cmdline.includes('mongo-embedded/src/cli')) return 'mongo';
  if (cmdline.includes('provider-sim')) return 'provider-sim';
  if (cmdline.includes('tools/dev/src/main.ts')) return 'launcher';
  if (/nats-server/.test(cmdline)) return 'nats';
  if (/redis-server/.test(cmdline)) return 'redis';
  return cmdline.split(' ')[0]!.split('/').pop() ?? 'other';
}

/**
 * The system as `npm start` runs it (the launcher; every part its own process; logs at `warn`),
 * on ports from `portBase`, with a data directory of its own that `stop()` removes.
 */
export async function launchSystem(portBase: number, env: NodeJS.ProcessEnv = {}) {
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
      ...env,
    },
    /\[dev\] ready:/,
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
