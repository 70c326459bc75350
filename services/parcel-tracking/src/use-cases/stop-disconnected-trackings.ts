import type { DomainEvent, Logger, SecretBox } from '@inventory/platform';
import type { ParcelInstanceDisconnected } from '@inventory/contracts/events/v1/parcel_tracking.js';
import { ProviderError } from '../provider/errors.js';
import type { ProviderClient } from '../provider/client.js';
import type { StopJobStore } from '../store/stop-job-store.js';
import type { TrackingStore } from '../store/tracking-store.js';

/** Not registered / already stopped: the provider is not tracking it, which is what we want. */
const ALREADY_STOPPED = new Set([-18019902, -18019906]);

/**
 * The background half of a disconnect: stops the instance's active trackings at
 * the provider. A provider outage throws, so the consumer redelivers with a
 * back-off; a rejected key cannot ever succeed, so the job is dropped (logged).
 */
export class StopDisconnectedTrackings {
  constructor(
    private readonly stopJobs: StopJobStore,
    private readonly trackings: TrackingStore,
    private readonly provider: ProviderClient,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
  ) {}

  async execute(event: DomainEvent<ParcelInstanceDisconnected>): Promise<void> {
    const { stopJobs, trackings, provider, secrets, logger } = this;
    const { integration_instance_id: instanceId, stop_job_id: jobId } = event.payload;
    const job = await stopJobs.find(event.tenantId, jobId);
    if (!job) return;
    try {
      const result = await provider.stopTrack(
        secrets.decrypt(job.api_key_encrypted),
        job.numbers.map((item) => ({
          number: item.number,
          ...(item.carrier === null ? {} : { carrier: item.carrier }),
        })),
      );
      const done = [
        ...result.accepted.map((item) => item.number),
        ...result.rejected
          .filter((item) => ALREADY_STOPPED.has(item.code))
          .map((item) => item.number),
      ];
      await trackings.markProviderStopped(event.tenantId, instanceId, done, new Date());
      const failed = result.rejected.filter((item) => !ALREADY_STOPPED.has(item.code));
      if (failed.length > 0)
        logger.warn(
          { instance_id: instanceId, failed: failed.length, first_error: failed[0]!.message },
          'provider refused to stop some trackings',
        );
      await stopJobs.delete(event.tenantId, jobId);
    } catch (error) {
      if (error instanceof ProviderError && error.code === 'invalid_key') {
        logger.warn(
          { instance_id: instanceId },
          'provider key rejected; trackings of the disconnected instance cannot be stopped there',
        );
        await stopJobs.delete(event.tenantId, jobId);
        return;
      }
      await stopJobs.progress(event.tenantId, jobId, job.numbers, (error as Error).message);
      throw error;
    }
  }
}
