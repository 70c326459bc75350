import { spawn, type ChildProcess } from 'node:child_process';
import { colorFor, formatLine } from './log-format.js';

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Output that says the process is ready. */
  readyPattern?: RegExp;
  /** Or a probe polled until it answers true (independent of log levels). */
  readyCheck?: () => Promise<boolean>;
  readyTimeoutMs?: number;
}

interface Running {
  spec: ProcessSpec;
  child: ChildProcess;
}

/**
 * Starts the system's processes with prefixed, readable logs; stops them in
 * reverse order. If one exits on its own while the system runs, everything
 * stops: a half-running system would only confuse.
 */
export class Supervisor {
  private readonly running: Running[] = [];
  private stopping = false;
  private index = 0;

  constructor(
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly onUnexpectedExit: (name: string, code: number | null) => void = () =>
      undefined,
  ) {
    // If the launcher dies without a clean stop, its detached children must not outlive it.
    process.on('exit', () => {
      for (const { child } of this.running)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  }

  log(name: string, message: string): void {
    this.output.write(`${formatLine(name, 97, message, this.useColor())}\n`);
  }

  private useColor(): boolean {
    return Boolean((this.output as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  }

  start(spec: ProcessSpec): Promise<void> {
    const color = colorFor(this.index++);
    // Own process group: a terminal's Ctrl-C reaches only the launcher, which then stops
    // the parts in reverse order instead of every part at once.
    const child = spawn(spec.command, spec.args, {
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.running.push({ spec, child });
    return new Promise((resolve, reject) => {
      let ready = !spec.readyPattern && !spec.readyCheck;
      const markReady = () => {
        if (ready) return;
        ready = true;
        clearTimeout(timer);
        clearInterval(probe);
        resolve();
      };
      let buffered = '';
      const timeoutMs = spec.readyTimeoutMs ?? 90_000;
      const timer = ready
        ? undefined
        : setTimeout(() => {
            clearInterval(probe);
            reject(new Error(`${spec.name} did not become ready within ${timeoutMs} ms`));
          }, timeoutMs);
      const probe = spec.readyCheck
        ? setInterval(() => {
            spec.readyCheck!().then(
              (ok) => ok && markReady(),
              () => undefined,
            );
          }, 250)
        : undefined;
      const onData = (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.trim()) continue;
          this.output.write(`${formatLine(spec.name, color, line, this.useColor())}\n`);
          if (!ready && spec.readyPattern?.test(line)) markReady();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('error', (error) => {
        clearTimeout(timer);
        clearInterval(probe);
        reject(error);
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        clearInterval(probe);
        if (!ready) reject(new Error(`${spec.name} exited with ${code} before it was ready`));
        else if (!this.stopping) this.onUnexpectedExit(spec.name, code);
      });
      if (ready) resolve();
    });
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const { spec, child } of [...this.running].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.log('dev', `${spec.name} did not stop in time; killing it`);
          child.kill('SIGKILL');
        }, graceMs);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
  }
}
