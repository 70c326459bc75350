import { userHasPermission } from '@inventory/access';
import { forbiddenBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import type { AuthenticatedUser } from './types.js';

/** The permission rule is identity's, defined once in @inventory/access (ADR 0101). */
export function hasPermission(user: AuthenticatedUser, permission: string): boolean {
  return userHasPermission({ is_owner: user.isOwner, permissions: user.permissions }, permission);
}

/** A token without `scope`: the specification's 403 with `required_scope`. */
export function assertTokenScope(scopes: readonly string[], scope: string): void {
  if (!scopes.includes(scope))
    throw new HttpError(
      403,
      forbiddenBody(`Token is missing the required scope: ${scope}.`, scope),
    );
}

/** Scopes never bypass permissions: the token acts as its user, and so does a session. */
export function assertPermission(user: AuthenticatedUser, permission: string): void {
  if (!hasPermission(user, permission))
    throw new HttpError(
      403,
      forbiddenBody(`You do not have the permission required for this action: ${permission}.`),
    );
}
