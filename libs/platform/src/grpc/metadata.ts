import { Metadata } from '@grpc/grpc-js';
import { newRequestId, type RequestContext } from '../logging/request-context.js';
import { traceHeaders, type CarrierGetter } from '../tracing/tracing.js';

/** The metadata keys the gateway sets after authentication; services trust only these. */
export const METADATA_KEYS = {
  requestId: 'x-request-id',
  tenantId: 'x-tenant-id',
  userId: 'x-user-id',
  tokenId: 'x-token-id',
} as const;

export function contextToMetadata(context: RequestContext | undefined): Metadata {
  const metadata = new Metadata();
  metadata.set(METADATA_KEYS.requestId, context?.requestId || newRequestId());
  if (context?.tenantId) metadata.set(METADATA_KEYS.tenantId, context.tenantId);
  if (context?.userId) metadata.set(METADATA_KEYS.userId, context.userId);
  if (context?.tokenId) metadata.set(METADATA_KEYS.tokenId, context.tokenId);
  // W3C trace context (`traceparent`): the callee's span continues the caller's trace.
  for (const [key, value] of Object.entries(traceHeaders(context?.span))) metadata.set(key, value);
  return metadata;
}

function first(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function metadataToContext(metadata: Metadata): RequestContext {
  return {
    requestId: first(metadata, METADATA_KEYS.requestId) ?? newRequestId(),
    tenantId: first(metadata, METADATA_KEYS.tenantId),
    userId: first(metadata, METADATA_KEYS.userId),
    tokenId: first(metadata, METADATA_KEYS.tokenId),
  };
}

/** Reads the caller's W3C trace headers from call metadata. */
export function metadataTraceCarrier(metadata: Metadata): CarrierGetter {
  return (key) => first(metadata, key);
}
