import type { Logger } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { RecoverJobRepository } from '../store/recover-job-repository.js';
import type { RecoverJobDocument } from '../store/recover-job.js';
import type { RateCap } from '../delivery/rate-cap.js';

/** Deliveries sent again per step: one cap request and one write for them. */
const STEP = 50;
/** How long a recover waits when the tenant's minute is full before asking again. */
const FULL_MINUTE_WAIT_MS = 1_000;

/**
 * Runs recover jobs (ADR 0415): takes cap slots for the next deliveries of the job's list,
 * starts a new cycle for those still failed (admitted, so the attempt takes no second slot),
 * then records its position; when the tenant's minute is full it waits instead of dropping.
 * The worker makes the attempts. A restarted replica carries on every running job from its
 * position, and a repeated step re-sends nothing (only failed deliveries restart).
 */
export class RecoverJobs {
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;
  private readonly sleeping = new Set<() => void>();

  constructor(
    private readonly jobs: RecoverJobRepository,
    private readonly deliveries: Pick<DeliveryRepository, 'restartFailed'>,
    private readonly rateCap: Pick<RateCap, 'takeMany'>,
    private readonly wake: () => void,
    private readonly logger: Logger,
  ) {}

  /** Carries on the jobs a stopped replica left running. */
  async start(): Promise<void> {
    for (const job of await this.jobs.runningAcrossTenants()) this.run(job);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const wakeUp of this.sleeping) wakeUp();
    await Promise.allSettled([...this.running.values()]);
  }

  run(job: RecoverJobDocument): void {
    if (this.stopped || this.running.has(job.id)) return;
    const run = this.execute(job)
      .catch((error: unknown) =>
        // The job stays running at its position: the next start carries it on.
        this.logger.error({ err: error, job_id: job.id }, 'recover job failed'),
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

  private async execute(job: RecoverJobDocument): Promise<void> {
    let sent = job.sent;
    while (sent < job.delivery_ids.length) {
      if (this.stopped) return;
      const wanted = Math.min(STEP, job.delivery_ids.length - sent);
      const granted = await this.rateCap.takeMany(job.tenant_id, wanted);
      if (granted === 0) {
        await this.pause(FULL_MINUTE_WAIT_MS);
        continue;
      }
      const next = job.delivery_ids.slice(sent, sent + granted);
      await this.deliveries.restartFailed(job.tenant_id, next);
      sent += next.length;
      await this.jobs.advance(job.tenant_id, job.id, sent);
      this.wake();
    }
    await this.jobs.complete(job.tenant_id, job.id);
  }
}
