import { randomUUID } from 'node:crypto';
import { BackgroundJobs, type JobControl, type Logger } from '@inventory/platform';
import type { ReprocessJobRepository } from '../store/reprocess-job-repository.js';
import type { ReprocessJobDocument } from '../store/reprocess-job.js';
import type { WebhookReprocessRepository } from '../store/webhook-reprocess-repository.js';

/** Rows put back to the processing job per step: one read and one bulk write. */
const STEP = 100;
/**
 * Rows of one job waiting for their result at most: a big job queues as the processing job keeps
 * up, so the rows it puts back never fill the backlog bound the provider's pushes answer 503 at
 * (ADR 0729).
 */
const IN_FLIGHT_MAX = 500;
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
 * Runs reprocess jobs (ADR 0230) on the platform's `BackgroundJobs`, the shape of
 * outbound-delivery's recover jobs (ADR 0415) with a lease, so that any replica carries on a job
 * another one left: it puts the job's rows back to the processing job a step at a time (each step
 * recorded as the job's position, the lease renewed), then waits until each of them has its new
 * result and completes the job. A step repeated after a restart puts back no row twice (the
 * repository skips rows the job already marked), and the processing job applies each row under
 * its own lease, so nothing is applied twice.
 */
export class ReprocessJobs {
  readonly owner = `${process.pid}-${randomUUID()}`;
  private readonly runner: BackgroundJobs<ReprocessJobDocument>;

  constructor(private readonly options: ReprocessJobsOptions) {
    this.runner = new BackgroundJobs({
      logger: options.logger,
      pending: (room) => this.claim(room),
      execute: (job, control) => this.execute(job, control),
      keyOf: (job) => job.id,
      pollMs: options.pollMs,
      maxRunning: MAX_RUNNING,
      // The job keeps its position; its lease runs out and a replica carries it on.
      runFailed: 'reprocess job step failed',
    });
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  /** A job was created here: look now rather than at the next poll. */
  kick(): void {
    this.runner.kick();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  /** Up to `room` unfinished jobs whose lease ran out, leased to this replica. */
  private async claim(room: number): Promise<ReprocessJobDocument[]> {
    const claimed: ReprocessJobDocument[] = [];
    while (claimed.length < room) {
      const job = await this.options.jobs.claimAcrossTenants(this.owner, this.options.leaseMs);
      if (!job) break;
      claimed.push(job);
    }
    return claimed;
  }

  private async execute(job: ReprocessJobDocument, control: JobControl): Promise<void> {
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
    while (!control.stopped) {
      if (phase === 'queueing') {
        const { queued, done } = await rows.progress(job.tenant_id, job.id);
        if (queued - done >= IN_FLIGHT_MAX) {
          if (!(await jobs.step(job, this.owner, leaseMs, {}))) return;
          await control.pause(pollMs);
          continue;
        }
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
      await control.pause(pollMs);
    }
    // Stopping: the lease is given up at once, so the next replica carries the job on.
    await jobs.release(job, this.owner);
  }
}
