import { ProviderClient } from '../src/provider/client.js';
import { KeyPacer } from '../src/provider/pacer.js';
import { PollTrackings } from '../src/use-cases/poll-trackings.js';
import { RegisterPending, type WorkerOptions } from '../src/use-cases/register-pending.js';
import { StopTrackings } from '../src/use-cases/stop-trackings.js';
import type { Harness } from './harness.js';

/**
 * The background workers, built by the test on its own repositories and provider client (the
 * service runs its own with TRACKING_WORKER_INTERVAL_MS=0, i.e. not at all), writing through the
 * service's outbox so what they raise is published as in production. Each `runOnce()` is one
 * pass; the clock is injected.
 */
export function testProvider(
  h: Harness,
  options: { baseUrl?: string; perSecond?: number } = {},
): ProviderClient {
  return new ProviderClient({
    baseUrl: options.baseUrl ?? h.sim.url,
    timeoutMs: 5_000,
    pacer: new KeyPacer(options.perSecond ?? 1000),
    breakerResetMs: 1_000,
    logger: h.service.logger,
  });
}

type Options = Partial<WorkerOptions> & { provider?: ProviderClient };

const defaults = (options: Options): WorkerOptions => ({
  owner: options.owner ?? 'test-worker',
  leaseMs: options.leaseMs ?? 60_000,
  backoffMs: options.backoffMs ?? 5_000,
  maxBackoffMs: options.maxBackoffMs ?? 600_000,
  now: options.now,
});

export function registerWorker(h: Harness, options: Options = {}): RegisterPending {
  const { instances, trackings } = h.stores;
  return new RegisterPending({
    instances,
    trackings,
    provider: options.provider ?? testProvider(h),
    secrets: h.secrets,
    outbox: h.service.outbox,
    logger: h.service.logger,
    options: defaults(options),
  });
}

export function pollWorker(h: Harness, options: Options & { staleAfterMs: number }): PollTrackings {
  const { instances, trackings, checkpoints } = h.stores;
  return new PollTrackings({
    instances,
    trackings,
    checkpoints,
    provider: options.provider ?? testProvider(h),
    secrets: h.secrets,
    outbox: h.service.outbox,
    logger: h.service.logger,
    options: { ...defaults(options), staleAfterMs: options.staleAfterMs },
  });
}

export function stopWorker(
  h: Harness,
  options: Options & { stopDeliveredAfterMs: number },
): StopTrackings {
  const { instances, trackings } = h.stores;
  return new StopTrackings({
    instances,
    trackings,
    provider: options.provider ?? testProvider(h),
    secrets: h.secrets,
    logger: h.service.logger,
    options: { ...defaults(options), stopDeliveredAfterMs: options.stopDeliveredAfterMs },
  });
}
