import {
  HealthClient,
  HealthCheckResponse_ServingStatus,
} from '@inventory/contracts/grpc/health/v1/health.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';

export interface ServiceHealthCheck {
  name: string;
  check(): Promise<boolean>;
  close(): void;
}

/** One grpc.health.v1 client per downstream service, for /readyz. */
export function createServiceHealthChecks(addresses: Record<string, string>): ServiceHealthCheck[] {
  return Object.entries(addresses).map(([name, address]) => {
    const handle: GrpcClientHandle<HealthClient> = createGrpcClient(HealthClient, address, {
      deadlineMs: 1_000,
    });
    return {
      name,
      check: async () => {
        try {
          return (
            (await handle.call.check({ service: '' })).status ===
            HealthCheckResponse_ServingStatus.SERVING
          );
        } catch {
          return false;
        }
      },
      close: () => handle.close(),
    };
  });
}
