import { randomUUID } from 'node:crypto';
import type { Logger } from '@inventory/platform';
import type { ReprocessJobRepository } from '../store/reprocess-job-repository.js';
import type { ReprocessJobDocument } from '../store/reprocess-job.js';
import type { WebhookReprocessRepository } from '../store/webhook-reprocess-repository.js';

/** Rows put back to the processing job per step: one read and one bulk write. */
const STEP = 100;
/** Jobs one replica runs at once. */
const MAX_RUNNING = 4;

export interface ReprocessJobsOptions {
  jobs: ReprocessJobRepository;
  rows: Pick<WebhookReprocessRepository, 'reprocessStep' | 'progress'>;
  /** The processing job has rows due: it looks now. */
  wake: () => void;
  logger: Logger;
  /** How long a replica holds a job without renewing it (a stopped replica's job returns after). */
  leaseMs: number;
  /** How often jobs are looked for, and a waiting job's progress counted. */
  pollMs: number;
}

/**
 * Runs reprocess jobs (ADR 0230), on the shape of outbound-delivery's recover jobs (ADR 0415),
 * with a lease so that any replica carries on a job another one left: it puts the job's rows back
 * to the processing job a step at a time (each step recorded as the job's position), then waits
 * until each of them has its new result and completes the job. A step repeated after a restart
 * puts back no row twice (the repository skips rows the job already marked), and the processing
 * job applies each row under its own lease, so nothing is applied twice.
 */
export class ReprocessJobs {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly running = new Map<string, Promise<void>>();
  private readonly sleeping = new Set<() => void>();
  private stopped = false;
  private loop?: Promise<void>;

  constructor(private readonly options: ReprocessJobsOptions) {}

  start(): void {
    this.loop = this.look().catch((error: unknown) =>
      this.options.logger.error({ err: error }, 'reprocess jobs stopped looking'),
    );
  }

  /** A job was created here: look now rather than at the next poll. */
  kick(): void {
    for (const wakeUp of this.sleeping) wakeUp();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.kick();
    await this.loop;
    await Promise.allSettled([...this.running.values()]);
  }

  private async look(): Promise<void> {
    while (!this.stopped) {
      try {
        while (this.running.size < MAX_RUNNING && !this.stopped) {
          const job = await this.options.jobs.claimAcrossTenants(this.owner, this.options.leaseMs);
          if (!job) break;
          this.run(job);
        }
      } catch (error) {
        this.options.logger.warn({ err: error }, 'reprocess job claim failed');
      }
      await this.pause(this.options.pollMs);
    }
  }

  private run(job: ReprocessJobDocument): void {
    const run = this.execute(job)
      .catch((error: unknown) =>
        // The job keeps its position; its lease runs out and a replica carries it on.
        this.options.logger.error({ err: error, job_id: job.id }, 'reprocess job step failed'),
      )
      .finally(() => this.running.delete(job.id));
    this.running.set(job.id, run);
  }

  private pause(ms: number): Promise<void> {
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

  private async execute(job: ReprocessJobDocument): Promise<void> {
    const { jobs, rows, leaseMs, pollMs } = this.options;
    let afterId = job.after_id;
    let phase = job.phase;
    const filter = job.filter;
    const query = {
      eventTypes: filter.event_types,
      results: filter.results,
      trackingNumber: filter.tracking_number,
      receivedFrom: filter.received_from ?? undefined,
      receivedTo: filter.received_to ?? undefined,
    };
    while (!this.stopped) {
      if (phase === 'queueing') {
        const last = await rows.reprocessStep(
          job.tenant_id,
          { id: job.id, instanceIds: job.instance_ids, query, afterId, upToId: job.up_to_id },
          STEP,
        );
        if (last === null) {
          phase = 'waiting';
          const { queued } = await rows.progress(job.tenant_id, job.id);
          if (!(await jobs.step(job, this.owner, leaseMs, { phase, total: queued }))) return;
          continue;
        }
        afterId = last;
        if (!(await jobs.step(job, this.owner, leaseMs, { after_id: afterId }))) return;
        this.options.wake();
        continue;
      }
      const { queued, done } = await rows.progress(job.tenant_id, job.id);
      if (done >= queued) {
        await jobs.step(job, this.owner, leaseMs, {
          phase: 'completed',
          total: queued,
          queued,
          done,
          finished_at: new Date(),
        });
        return;
      }
      if (!(await jobs.step(job, this.owner, leaseMs, {}))) return;
      await this.pause(pollMs);
    }
    await jobs.release(job, this.owner);
  }
}
