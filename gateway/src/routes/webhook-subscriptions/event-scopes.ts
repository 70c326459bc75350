import { webhookEventScope } from '@inventory/events';
import type { FastifyRequest } from 'fastify';
import { forbiddenBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';

/**
 * Subscribing to an event needs its read scope from the catalog (libs/events) on the token,
 * and the permission on the user (scopes never bypass permissions), as reading the records
 * would. Names outside the catalog are left to the service's 422.
 */
export function assertMayReceive(request: FastifyRequest, events: readonly string[]): void {
  const auth = request.auth;
  if (!auth) return;
  const scopes = [...new Set(events.map(webhookEventScope).filter((s): s is string => !!s))];
  for (const scope of scopes) {
    if (auth.kind === 'token' && !auth.scopes.includes(scope))
      throw new HttpError(
        403,
        forbiddenBody(`Token is missing the required scope: ${scope}.`, scope),
      );
    if (!auth.user.isOwner && !auth.user.permissions.includes(scope))
      throw new HttpError(
        403,
        forbiddenBody(`You do not have the permission required for this action: ${scope}.`),
      );
  }
}
