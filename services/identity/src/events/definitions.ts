import { TokenChanged, TokenRequestLogged, TokenRevoked } from '@inventory/contracts/events/v1/identity.js';
import { defineEvent, type StreamSpec } from '@inventory/platform';

/** Everything identity publishes or consumes lives on one stream. */
export const IDENTITY_STREAM: StreamSpec = { name: 'IDENTITY', subjects: ['identity.>'], maxAgeMs: 7 * 24 * 3600 * 1000 };

export const TOKEN_REVOKED = defineEvent('identity.token.revoked', TokenRevoked);
export const TOKEN_CHANGED = defineEvent('identity.token.changed', TokenChanged);
/** Published by the gateway after each token-authenticated response. */
export const TOKEN_REQUEST_LOGGED = defineEvent('identity.token.request_logged', TokenRequestLogged);
