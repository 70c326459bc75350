import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@inventory/local-infra';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/** The launcher's port offsets from DEV_PORT_BASE (tools/dev/src/plan.ts). */
const PORT_OFFSETS = [17, 222, 379, 410, 501, 502, 503, 504, 505, 600, 601, 602, 603, 604, 605];

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 110) * 100;
    const free = await Promise.all(PORT_OFFSETS.map((offset) => canListen(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free DEV_PORT_BASE between 20000 and 31000');
}

/** The process ids under `root` (only the launcher's own tree, never anyone else's processes). */
export function descendants(root: number): Array<{ pid: number; args: string }> {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), ppid: Number(match[2]), args: match[3]! }));
  const found: Array<{ pid: number; args: string }> = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows.filter((candidate) => candidate.ppid === parent)) {
      found.push({ pid: row.pid, args: row.args });
      queue.push(row.pid);
    }
  }
  return found;
}

export interface LaunchedSystem {
  child: ChildProcess;
  output(): string;
  dev: Record<string, string>;
  /** The pid of the launcher's part whose command line contains `pattern` (the deepest one). */
  pidOf(pattern: string): number | undefined;
  stop(): Promise<void>;
}

/** `npm start` (tools/dev/start.sh) on spare ports and a fresh data directory, until ready. */
export async function launchSystem(readyCapMs = 150_000): Promise<LaunchedSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'inventory-faults-'));
  const gatewayPort = await freePort();
  const portBase = await freePortBase();
  const child = spawn('bash', ['tools/dev/start.sh'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DEV_DATA_DIR: dataDir,
      DEV_GATEWAY_PORT: String(gatewayPort),
      DEV_PORT_BASE: String(portBase),
      LOG_LEVEL: 'warn',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const started = Date.now();
  while (!output.includes('[dev] ready:')) {
    if (child.exitCode !== null || Date.now() - started > readyCapMs) {
      await stop();
      throw new Error(`launcher not ready:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const dev = JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')) as Record<string, string>;
  return {
    child,
    output: () => output,
    dev,
    pidOf(pattern) {
      const rows = descendants(child.pid!).filter((row) => row.args.includes(pattern));
      return rows.at(-1)?.pid;
    },
    stop,
  };
}

/**
 * The error and fatal lines of the launcher's output (`output()`), the last `most`, each cut to
 * 1,500 characters. The launcher prints each part's pino JSON as one readable line,
 * `[part] 12:00:01 ERROR message key=value` (tools/dev log-format.ts), so the JSON `level` field
 * is not in the output to match.
 */
export function errorLines(output: string, most = 40): string {
  return output
    .split('\n')
    .filter((line) => /^\[[\w-]+\] \d{2}:\d{2}:\d{2} (ERROR|FATAL) /.test(line))
    .slice(-most)
    .map((line) => line.slice(0, 1_500))
    .join('\n');
}
