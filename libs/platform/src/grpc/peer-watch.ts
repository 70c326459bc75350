import { credentials, Metadata } from '@grpc/grpc-js';
import { HealthClient } from '@inventory/contracts/grpc/health/v1/health.js';
import { StallWatch, type StallWatchOptions } from '../health/stall-watch.js';

/**
 * Whether a gRPC server answers, from grpc.health.v1 pings on a channel of its own (its own
 * connection, so a ping never waits behind the calls' flow control). A failed ping is not a
 * stall: a refused or lost connection already fails calls fast (the connection gate); only a
 * ping left unanswered (a frozen process) is (ADR 0744).
 */
export class PeerWatch extends StallWatch {
  private readonly health: HealthClient;

  constructor(service: string, address: string, options: StallWatchOptions) {
    const health = new HealthClient(address, credentials.createInsecure(), {
      'grpc.enable_retries': 0,
      'grpc.use_local_subchannel_pool': 1,
    });
    super(
      service,
      () =>
        new Promise<void>((resolve, reject) => {
          // Far beyond `stallMs`: the watch judges the wait, the deadline only bounds it.
          health.check(
            { service: '' },
            new Metadata(),
            { deadline: Date.now() + 60_000 },
            (error) => (error ? reject(error) : resolve()),
          );
        }),
      { ...options, failureStalls: false },
    );
    this.health = health;
  }

  override stop(): void {
    super.stop();
    this.health.close();
  }
}
