import type { Logger } from '../logging/index.js';

/** What a job's run may ask of its runner. */
export interface JobControl {
  /** The runner is stopping: the run records nothing more and returns (its job is carried on). */
  readonly stopped: boolean;
  /** Waits `ms`, or less when the runner stops (or is kicked). */
  pause(ms: number): Promise<void>;
}

export interface BackgroundJobsOptions<J> {
  logger: Logger;
  /**
   * Jobs to carry on, up to `room`: those a stopped replica left running, or those whose lease ran
   * out (the store claims them for this replica). Asked at `start`, then every `pollMs` if set.
   */
  pending(room: number): Promise<J[]>;
  /**
   * One job's work from its recorded position: it records each step (so a repeated step does
   * nothing twice) and returns when the job is done, when `control.stopped`, or when it lost
   * the job. A throw is logged; the job keeps its position and is carried on later.
   */
  execute(job: J, control: JobControl): Promise<void>;
  /** The job's key: a job already running here is not started twice. */
  keyOf(job: J): string;
  /** How often `pending` is asked again; absent: only at `start` (and on `kick`). */
  pollMs?: number;
  /** Jobs run at once by this replica. */
  maxRunning?: number;
  /** Logged (with `job_id`) when a run throws. */
  runFailed: string;
}

/**
 * Long jobs with progress, run in the background and carried on after a restart (ADR 0230): the
 * shape outbound-delivery's recover jobs (ADR 0415) and webhook-ingest's reprocess jobs share.
 * The store keeps each job's position; this runs each job once per replica, looks for jobs left
 * to carry on, and on `stop` wakes every pause and waits for the runs, which return at their
 * next step. Whether two replicas may run one job is the store's `pending` (a lease, or none).
 */
export class BackgroundJobs<J> {
  private readonly running = new Map<string, Promise<void>>();
  private readonly sleeping = new Set<() => void>();
  private stopping = false;
  private loop?: Promise<void>;
  private readonly control: JobControl;

  constructor(private readonly options: BackgroundJobsOptions<J>) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const runner = this;
    this.control = {
      get stopped() {
        return runner.stopping;
      },
      pause: (ms) => this.pause(ms),
    };
  }

  /** Carries on the pending jobs; with `pollMs`, keeps looking until `stop`. */
  async start(): Promise<void> {
    await this.look();
    if (this.options.pollMs !== undefined) this.loop = this.poll(this.options.pollMs);
  }

  /** Runs a job now (one created here); nothing when it already runs here or the runner stops. */
  run(job: J): void {
    const key = this.options.keyOf(job);
    if (this.stopping || this.running.has(key)) return;
    const run = this.options
      .execute(job, this.control)
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, job_id: key }, this.options.runFailed),
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, run);
  }

  /** Looks for jobs now (one was created, maybe by another replica's store) and ends pauses. */
  kick(): void {
    for (const wakeUp of this.sleeping) wakeUp();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.kick();
    await this.loop;
    await Promise.allSettled([...this.running.values()]);
  }

  private async look(): Promise<void> {
    const room = (this.options.maxRunning ?? Number.MAX_SAFE_INTEGER) - this.running.size;
    if (room <= 0 || this.stopping) return;
    for (const job of await this.options.pending(room)) this.run(job);
  }

  private async poll(pollMs: number): Promise<void> {
    while (!this.stopping) {
      await this.pause(pollMs);
      try {
        await this.look();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'background jobs: looking for jobs failed');
      }
    }
  }

  private pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeping.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeping.add(done);
    });
  }
}
