import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';

/**
 * Who and what a unit of work belongs to. Set by the gateway after
 * authentication and carried across gRPC metadata and NATS headers, so every log
 * line and downstream call of one request shares the same request id.
 */
export interface RequestContext {
  requestId: string;
  tenantId?: string;
  userId?: string;
  tokenId?: string;
  /** The span of this unit of work when tracing is on: the parent of the calls it makes. */
  span?: Span;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function newRequestId(): string {
  return randomUUID();
}

/**
 * Binds a context to the rest of the current async flow; used by HTTP hooks,
 * which cannot wrap the whole request in a callback. Mutating the returned
 * object (tenant, user, token after authentication) updates it for every
 * later step of that request.
 */
export function enterContext(context: RequestContext): RequestContext {
  storage.enterWith(context);
  return context;
}
