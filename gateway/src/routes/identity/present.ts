import type { Token, TokenRequest, User } from '@inventory/contracts/identity/v1/identity.js';
import { isoOrNull } from '../../http/timestamps.js';

export function presentUser(user: User) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    is_owner: user.is_owner,
    permissions: user.permissions,
    two_factor_enabled: user.two_factor_enabled,
    created_at: isoOrNull(user.created_at),
  };
}

/** A token as lists and edits show it: never the secret. */
export function presentToken(token: Token) {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    ip_allowlist: token.ip_allowlist,
    rate_limit_per_minute: token.rate_limit_per_minute ?? null,
    expires_at: isoOrNull(token.expires_at),
    last_used_at: isoOrNull(token.last_used_at),
    created_at: isoOrNull(token.created_at),
    updated_at: isoOrNull(token.updated_at),
    policy_violations: token.policy_violations,
  };
}

export function presentRequest(row: TokenRequest) {
  return {
    id: row.id,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    duration_ms: row.duration_ms,
    ip: row.ip,
    user_agent: row.user_agent,
    requested_at: isoOrNull(row.at),
  };
}
