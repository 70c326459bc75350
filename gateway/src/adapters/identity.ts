import { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';

export type IdentityAdapter = GrpcClientHandle<IdentityServiceClient>;

/** The one client to identity: deadline per call, circuit breaker, request context as metadata. */
export function createIdentityAdapter(address: string, deadlineMs: number): IdentityAdapter {
  return createGrpcClient(IdentityServiceClient, address, {
    deadlineMs,
    breaker: { resetTimeoutMs: 2_000 },
  });
}
