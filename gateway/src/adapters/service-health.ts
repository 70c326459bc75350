import { createHealthProbe } from '@inventory/platform';

export interface ServiceHealthCheck {
  name: string;
  check(): Promise<boolean>;
  close(): void;
}

/** One grpc.health.v1 probe per downstream service, for /readyz. */
export function createServiceHealthChecks(addresses: Record<string, string>): ServiceHealthCheck[] {
  return Object.entries(addresses).map(([name, address]) => {
    const probe = createHealthProbe(address);
    return { name, check: () => probe.isServing(), close: () => probe.close() };
  });
}
