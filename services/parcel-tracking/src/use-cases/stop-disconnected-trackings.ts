import type { DomainEvent, Logger, SecretBox } from '@inventory/platform';
import type { ParcelInstanceDisconnected } from '@inventory/contracts/events/v1/parcel_tracking.js';
import { groupByKey } from '../domain/key-ring.js';
import { ProviderError } from '../provider/errors.js';
import type { ProviderClient } from '../provider/client.js';
import type { StopJobRepository } from '../store/stop-job-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';

/** Not registered / already stopped: the provider is not tracking it, which is what we want. */
const ALREADY_STOPPED = new Set([-18019902, -18019906]);

/**
 * The background half of a disconnect: stops the instance's active trackings at
 * the provider, each with the key that registered it (the current one or one a
 * rotation retired, ADR 0213). A provider outage throws, so the consumer
 * redelivers with a back-off and only the numbers not yet stopped are left in
 * the job; a rejected key cannot ever succeed, so its numbers are dropped (logged).
 */
export class StopDisconnectedTrackings {
  constructor(
    private readonly deps: {
      stopJobs: StopJobRepository;
      trackings: TrackingRepository;
      provider: ProviderClient;
      secrets: SecretBox;
      logger: Logger;
    },
  ) {}

  async execute(event: DomainEvent<ParcelInstanceDisconnected>): Promise<void> {
    const { stopJobs, trackings, provider, secrets, logger } = this.deps;
    const { integration_instance_id: instanceId, stop_job_id: jobId } = event.payload;
    const job = await stopJobs.find(event.tenantId, jobId);
    if (!job) return;
    const ring = { current: job.api_key_encrypted, retired: job.retired_keys ?? [] };
    let remaining = job.numbers;
    for (const [encrypted, items] of groupByKey(ring, job.numbers, (item) => item.key_ref)) {
      try {
        const result = await provider.stopTrack(
          secrets.decrypt(encrypted),
          items.map((item) => ({
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
      } catch (error) {
        if (!(error instanceof ProviderError && error.code === 'invalid_key')) {
          await stopJobs.progress(event.tenantId, jobId, remaining, (error as Error).message);
          throw error;
        }
        logger.warn(
          { instance_id: instanceId, numbers: items.length },
          'provider key rejected; trackings of the disconnected instance cannot be stopped there',
        );
      }
      // Handled (stopped, refused for good, or its key rejected): a redelivery skips them.
      remaining = remaining.filter((item) => !items.includes(item));
    }
    await stopJobs.delete(event.tenantId, jobId);
  }
}
