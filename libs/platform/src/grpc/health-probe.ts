import {
  HealthClient,
  HealthCheckResponse_ServingStatus,
} from '@inventory/contracts/grpc/health/v1/health.js';
import { createGrpcClient } from './client.js';

export interface HealthProbe {
  /** True when the server's grpc.health.v1 Check says SERVING; false on any other answer or failure. */
  isServing(): Promise<boolean>;
  close(): void;
}

/** A reusable grpc.health.v1 probe of one server (readiness checks, launchers). */
export function createHealthProbe(address: string, deadlineMs = 1_000): HealthProbe {
  const handle = createGrpcClient(HealthClient, address, { deadlineMs });
  return {
    async isServing() {
      try {
        const { status } = await handle.call.check({ service: '' });
        return status === HealthCheckResponse_ServingStatus.SERVING;
      } catch {
        return false;
      }
    },
    close: () => handle.close(),
  };
}
