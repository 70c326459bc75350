import {
  TokenChanged,
  TokenRequestsLogged,
  TokenRevoked,
  UserChanged,
} from '@inventory/contracts/events/v1/identity.js';
import { defineEvent, type StreamSpec } from '@inventory/platform';

/** Identity's stream: token lifecycle and the gateway's request log. */
export const IDENTITY_STREAM: StreamSpec = {
  name: 'IDENTITY',
  subjects: ['identity.>'],
  maxAgeMs: 7 * 24 * 3600 * 1000,
};

/** A token stops working now; every gateway replica drops it from its cache. */
export const tokenRevoked = defineEvent('identity.token.revoked', TokenRevoked);

/** Scopes, allowlist, rate limit or name changed; gateway replicas reload it. */
export const tokenChanged = defineEvent('identity.token.changed', TokenChanged);

/**
 * A user's profile, permissions or two-factor state changed; gateway replicas drop the cached
 * user and the user's token records (which carry its permissions), so the next request reloads.
 */
export const userChanged = defineEvent('identity.user.changed', UserChanged);

/** Published by each gateway replica per tenant and short window; consumed by identity. */
export const tokenRequestsLogged = defineEvent(
  'identity.token.requests_logged',
  TokenRequestsLogged,
);
