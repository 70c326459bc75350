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

export interface RestartPolicy {
  /** Wait before the first restart; doubled after each further crash, up to `maxBackoffMs`. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** This many crashes of one process within `crashWindowMs` is a crash loop: give up. */
  crashLoopLimit: number;
  crashWindowMs: number;
  /** A process that has run this long since its last start has recovered: back-off starts over. */
  stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  crashLoopLimit: 5,
  crashWindowMs: 60_000,
  stableAfterMs: 30_000,
};

export interface SupervisorHooks {
  /** A process crashed this often within the window: the caller stops everything. */
  onCrashLoop?: (name: string, crashes: number) => void;
  restartPolicy?: Partial<RestartPolicy>;
}

interface Running {
  spec: ProcessSpec;
  color: number;
  child: ChildProcess;
  startedAt: number;
  /** Crash times within the window, for crash-loop detection. */
  crashes: number[];
  nextBackoffMs: number;
  restartTimer?: NodeJS.Timeout;
  /** Restarts so far, for the logs and tests. */
  restarts: number;
}

/**
 * Starts the system's processes with prefixed, readable logs and supervises them: a process
 * that exits on its own is logged and restarted with exponential back-off while the others
 * keep serving; a process that keeps crashing (crash loop) makes the caller stop everything.
 * `stopAll` (Ctrl-C) stops them in reverse order and cancels pending restarts.
 */
export class Supervisor {
  private readonly running: Running[] = [];
  private stopping = false;
  private index = 0;
  private readonly policy: RestartPolicy;

  constructor(
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly hooks: SupervisorHooks = {},
  ) {
    this.policy = { ...DEFAULT_RESTART_POLICY, ...hooks.restartPolicy };
    // If the launcher dies without a clean stop, its detached children must not outlive it.
    process.on('exit', () => {
      for (const { child } of this.running)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  }

  log(name: string, message: string): void {
    this.output.write(`${formatLine(name, 97, message, this.useColor())}\n`);
  }

  /** The current process id of a supervised part (changes when it is restarted). */
  pidOf(name: string): number | undefined {
    return this.running.find((entry) => entry.spec.name === name)?.child.pid;
  }

  restartsOf(name: string): number {
    return this.running.find((entry) => entry.spec.name === name)?.restarts ?? 0;
  }

  private useColor(): boolean {
    return Boolean((this.output as NodeJS.WriteStream).isTTY) && !process.env.NO_COLOR;
  }

  /** Starts a part and resolves once it is ready; rejects if it fails before that (start-up). */
  start(spec: ProcessSpec): Promise<void> {
    const entry = {
      spec,
      color: colorFor(this.index++),
      crashes: [],
      nextBackoffMs: this.policy.initialBackoffMs,
      restarts: 0,
    } as unknown as Running;
    this.running.push(entry);
    return this.spawn(entry);
  }

  private spawn(entry: Running): Promise<void> {
    const { spec } = entry;
    // Own process group: a terminal's Ctrl-C reaches only the launcher, which then stops
    // the parts in reverse order instead of every part at once.
    const child = spawn(spec.command, spec.args, {
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    entry.child = child;
    entry.startedAt = Date.now();
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
          this.output.write(`${formatLine(spec.name, entry.color, line, this.useColor())}\n`);
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
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        clearInterval(probe);
        if (this.stopping) return;
        // At start-up (never ready yet) the launcher decides; once running, we supervise.
        if (!ready && entry.restarts === 0)
          reject(new Error(`${spec.name} exited with ${code ?? signal} before it was ready`));
        else this.crashed(entry, code, signal);
      });
      if (ready) resolve();
    });
  }

  private crashed(entry: Running, code: number | null, signal: NodeJS.Signals | null): void {
    const now = Date.now();
    const { name } = entry.spec;
    if (now - entry.startedAt >= this.policy.stableAfterMs)
      entry.nextBackoffMs = this.policy.initialBackoffMs;
    entry.crashes = [...entry.crashes, now].filter((at) => now - at <= this.policy.crashWindowMs);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (entry.crashes.length >= this.policy.crashLoopLimit) {
      this.log(
        'dev',
        `${name} exited (${how}) ${entry.crashes.length} times within ${this.policy.crashWindowMs} ms: crash loop, giving up`,
      );
      this.hooks.onCrashLoop?.(name, entry.crashes.length);
      return;
    }
    const delay = entry.nextBackoffMs;
    entry.nextBackoffMs = Math.min(delay * 2, this.policy.maxBackoffMs);
    this.log('dev', `${name} exited unexpectedly (${how}); restarting in ${delay} ms`);
    entry.restartTimer = setTimeout(() => {
      entry.restartTimer = undefined;
      if (this.stopping) return;
      entry.restarts++;
      this.spawn(entry).then(
        () => this.log('dev', `${name} restarted (restart ${entry.restarts})`),
        // A restart that fails before ready exits too, and that exit is handled as a crash.
        (error: Error) => this.log('dev', `${name} restart failed: ${error.message}`),
      );
    }, delay);
  }

  async stopAll(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const entry of this.running) clearTimeout(entry.restartTimer);
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
