/**
 * The embedded server of `insert-server.ts` in a child process of its own, as the benches of this
 * folder drive it: its port, its own CPU time (so a figure is the server's, not the client's), and
 * a stop that waits for it to exit.
 */
import { fork } from 'node:child_process';
import path from 'node:path';

export interface EngineProcess {
  port: number;
  /** The server's own CPU time (user + system) so far, in µs, asked over IPC. */
  cpuUs(): Promise<number>;
  stop(): Promise<void>;
}

export interface EngineProcessOptions {
  /** Another copy of the engine (its `src/index.ts`) instead of this checkout's. */
  engine?: string;
  dataDir?: string;
  fsync?: 'always' | 'interval' | 'never';
  /** `--cpu-prof` into this folder (the benches pass BENCH_SERVER_PROF). */
  profileDir?: string;
}

export async function startEngineProcess(
  options: EngineProcessOptions = {},
): Promise<EngineProcess> {
  const child = fork(
    path.join(import.meta.dirname, 'insert-server.ts'),
    options.dataDir ? [options.dataDir, options.fsync ?? 'interval'] : [],
    {
      execArgv: [
        '--import',
        'tsx',
        '--conditions=development',
        ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
      ],
      env: { ...process.env, BENCH_ENGINE: options.engine ?? '' },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec((out += chunk.toString()));
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    port,
    cpuUs: () =>
      new Promise<number>((resolve) => {
        child.once('message', (usage) => {
          const { user, system } = usage as NodeJS.CpuUsage;
          resolve(user + system);
        });
        child.send('cpu');
      }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}
