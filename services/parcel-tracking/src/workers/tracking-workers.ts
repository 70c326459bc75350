import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { SecretBox, ServiceRuntime } from '@inventory/platform';
import type { Config } from '../config.js';
import type { ProviderClient } from '../provider/client.js';
import type { CheckpointRepository } from '../store/checkpoint-repository.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import { AlertWatchedShipments } from '../use-cases/alert-watched-shipments.js';
import { PollTrackings } from '../use-cases/poll-trackings.js';
import { RegisterPending } from '../use-cases/register-pending.js';
import { StopTrackings } from '../use-cases/stop-trackings.js';
import { startWorkerLoop } from './worker-loop.js';

type WorkerConfig = Pick<
  Config,
  | 'TRACKING_LEASE_MS'
  | 'REGISTRATION_BACKOFF_MS'
  | 'REGISTRATION_MAX_BACKOFF_MS'
  | 'POLL_STALE_AFTER_MS'
  | 'STOP_DELIVERED_AFTER_MS'
  | 'TRACKING_WORKER_INTERVAL_MS'
  | 'SHIPMENT_WATCH_INTERVAL_MS'
>;

/**
 * The registration, polling and stopping workers over the tracking rows' queues, each paced by
 * its own loop every TRACKING_WORKER_INTERVAL_MS, and the stalled and late shipments' alert sweep
 * every SHIPMENT_WATCH_INTERVAL_MS (none at 0: tests run their own passes), stopped with the
 * runtime. The owner names this replica's leases.
 */
export function startTrackingWorkers(
  runtime: ServiceRuntime,
  deps: {
    instances: InstanceRepository;
    trackings: TrackingRepository;
    checkpoints: CheckpointRepository;
    provider: ProviderClient;
    secrets: SecretBox;
    config: WorkerConfig;
  },
): void {
  const { instances, trackings, checkpoints, provider, secrets, config } = deps;
  const { outbox, logger } = runtime;
  const workerOptions = {
    owner: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    leaseMs: config.TRACKING_LEASE_MS,
    backoffMs: config.REGISTRATION_BACKOFF_MS,
    maxBackoffMs: config.REGISTRATION_MAX_BACKOFF_MS,
  };
  const workers = {
    register: new RegisterPending({
      instances,
      trackings,
      provider,
      secrets,
      outbox,
      logger,
      options: workerOptions,
    }),
    poll: new PollTrackings({
      instances,
      trackings,
      checkpoints,
      provider,
      secrets,
      outbox,
      logger,
      options: { ...workerOptions, staleAfterMs: config.POLL_STALE_AFTER_MS },
    }),
    stop: new StopTrackings({
      instances,
      trackings,
      provider,
      secrets,
      logger,
      options: { ...workerOptions, stopDeliveredAfterMs: config.STOP_DELIVERED_AFTER_MS },
    }),
  };
  const paced = (name: string, runOnce: () => Promise<unknown>, intervalMs: number) => {
    if (intervalMs <= 0) return;
    const loop = startWorkerLoop({ name, runOnce, intervalMs, logger });
    runtime.onStop(() => loop.stop());
  };
  for (const [name, worker] of Object.entries(workers))
    paced(name, () => worker.runOnce(), config.TRACKING_WORKER_INTERVAL_MS);
  const watch = new AlertWatchedShipments({ instances, trackings, outbox, logger });
  paced('shipment-watch', () => watch.runOnce(), config.SHIPMENT_WATCH_INTERVAL_MS);
}
