import { webhookEventScope } from '@inventory/events';
import type { FastifyRequest } from 'fastify';
import { assertPermission, assertTokenScope } from '../../auth/grants.js';

/**
 * Receiving an event needs its read scope from the catalog (libs/events) on the token, and the
 * permission on the user, as reading the records would (ADR 0409). Checked for the events a
 * request subscribes to and for the events a subscription already carries, before anything
 * changes, redelivers, pings, rotates or reads it: whoever can re-point a subscription can read
 * what it sends. Names outside the catalog are left to the service's 422.
 */
export function assertMayReceive(request: FastifyRequest, events: readonly string[]): void {
  const auth = request.auth;
  if (!auth) return;
  const scopes = [...new Set(events.map(webhookEventScope).filter((s): s is string => !!s))];
  for (const scope of scopes) {
    if (auth.kind === 'token') assertTokenScope(auth.scopes, scope);
    assertPermission(auth.user, scope);
  }
}

/** The caller as a subscription's owner: the user whose grants its deliveries follow (ADR 0409). */
export function subscriptionOwner(request: FastifyRequest) {
  const user = request.auth?.user;
  return user
    ? { user_id: user.id, is_owner: user.isOwner, permissions: user.permissions }
    : undefined;
}
