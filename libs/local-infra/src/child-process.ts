import { spawn, type ChildProcess } from 'node:child_process';

export interface ManagedProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface SpawnUntilReadyOptions {
  command: string;
  args: string[];
  /** Output that says the process is ready. */
  readyPattern: RegExp;
  timeoutMs?: number;
  /** Receives every output line (the dev launcher prefixes and prints them). */
  onLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** Spawns a server and resolves once it prints its ready line; rejects with its output if it exits or stalls. */
export function spawnUntilReady(options: SpawnUntilReadyOptions): Promise<ManagedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(options.command, options.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
    });
    let output = '';
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${options.command} did not become ready within ${options.timeoutMs ?? 15_000} ms:\n${output}`,
        ),
      );
    }, options.timeoutMs ?? 15_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (!ready) output += text;
      for (const line of text.split('\n')) if (line.trim()) options.onLine?.(line);
      if (!ready && options.readyPattern.test(output)) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, stop: () => stopProcess(child) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      if (!ready) {
        clearTimeout(timer);
        reject(new Error(`${options.command} exited with ${code} before it was ready:\n${output}`));
      }
    });
  });
}

/** SIGTERM, then SIGKILL if it does not exit within `graceMs`. */
export function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
