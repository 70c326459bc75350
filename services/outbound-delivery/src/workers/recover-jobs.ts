import { BackgroundJobs, type JobControl, type Logger } from '@inventory/platform';
import type { DeliveryRepository } from '../store/delivery-repository.js';
import type { RecoverJobRepository } from '../store/recover-job-repository.js';
import type { RecoverJobDocument } from '../store/recover-job.js';
import { recoverSlotId, type RateCap } from '../delivery/rate-cap.js';

/** Deliveries sent again per step: one cap request and one write for them. */
const STEP = 50;
/** How long a recover waits when the tenant's minute is full before asking again. */
const FULL_MINUTE_WAIT_MS = 1_000;

/**
 * Runs recover jobs (ADR 0415) on the platform's `BackgroundJobs` (ADR 0230): takes cap slots for
 * the next deliveries of the job's list, starts a new cycle for those still failed (admitted, so
 * the attempt takes no second slot), then records its position; when the tenant's minute is full
 * it waits instead of dropping. The worker makes the attempts. A restarted replica carries on
 * every running job from its position, and a repeated step re-sends nothing (only failed
 * deliveries restart).
 */
export class RecoverJobs {
  private readonly runner: BackgroundJobs<RecoverJobDocument>;

  constructor(
    private readonly jobs: RecoverJobRepository,
    private readonly deliveries: Pick<DeliveryRepository, 'restartFailed'>,
    private readonly rateCap: Pick<RateCap, 'admit'>,
    private readonly wake: () => void,
    logger: Logger,
  ) {
    this.runner = new BackgroundJobs({
      logger,
      // Carried on at start only: one replica runs its jobs (no lease, ADR 0415).
      pending: () => this.jobs.runningAcrossTenants(),
      execute: (job, control) => this.execute(job, control),
      keyOf: (job) => job.id,
      runFailed: 'recover job failed',
    });
  }

  /** Carries on the jobs a stopped replica left running. */
  start(): Promise<void> {
    return this.runner.start();
  }

  stop(): Promise<void> {
    return this.runner.stop();
  }

  run(job: RecoverJobDocument): void {
    this.runner.run(job);
  }

  private async execute(job: RecoverJobDocument, control: JobControl): Promise<void> {
    let sent = job.sent;
    while (sent < job.delivery_ids.length) {
      if (control.stopped) return;
      const candidates = job.delivery_ids.slice(sent, sent + STEP);
      const admitted = await this.rateCap.admit(
        job.tenant_id,
        candidates.map((id) => recoverSlotId(job.id, id)),
      );
      // Slots are taken in order, so the admitted ones lead (a resumed job's step holds its own).
      const refused = admitted.indexOf(false);
      const granted = refused === -1 ? admitted.length : refused;
      if (granted === 0) {
        await control.pause(FULL_MINUTE_WAIT_MS);
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
