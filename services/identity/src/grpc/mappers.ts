/** Identity's records in the proto's shapes: the only place they are presented (gRPC and the admin CLI's JSON). */
import type {
  AuthToken,
  Tenant,
  TenantToken,
  Token,
  TokenPolicy as TokenPolicyMessage,
  TokenRequest,
  TokenUsage,
  User,
} from '@inventory/contracts/identity/v1/identity.js';
import type { TokenPolicy } from '../domain/token-policy.js';
import type { ReviewedToken } from '../use-cases/tenant-tokens.js';
import type { TokenUsageFigures } from '../domain/token-usage.js';
import type { TenantDocument, TenantWithDomains } from '../store/tenant.js';
import type { TokenRequestDocument } from '../store/token-request.js';
import type { TokenDocument } from '../store/token.js';
import type { UserDocument } from '../store/user.js';

export function presentTenant({ tenant, domains }: TenantWithDomains): Tenant {
  return presentTenantRow(tenant, domains);
}

function presentTenantRow(tenant: TenantDocument, domains: string[]): Tenant {
  return {
    id: tenant.tenant_id,
    slug: tenant.slug,
    name: tenant.name,
    domains,
    created_at: tenant.created_at,
  };
}

export function presentUser(user: UserDocument): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    is_owner: user.is_owner,
    permissions: user.permissions,
    two_factor_enabled: user.two_factor_enabled,
    created_at: user.created_at,
  };
}

/** Never carries the secret or its hash; `policyViolations`: the policy rules it breaks. */
export function presentToken(token: TokenDocument, policyViolations: string[] = []): Token {
  return {
    policy_violations: policyViolations,
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    ip_allowlist: token.ip_allowlist,
    rate_limit_per_minute: token.rate_limit_per_minute ?? undefined,
    expires_at: token.expires_at ?? undefined,
    last_used_at: token.last_used_at ?? undefined,
    created_at: token.created_at,
    updated_at: token.updated_at,
  };
}

export function presentRequest(row: TokenRequestDocument): TokenRequest {
  return {
    id: row.event_id,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    duration_ms: row.duration_ms,
    ip: row.ip,
    user_agent: row.user_agent,
    at: row.at,
  };
}

/** What the gateway checks a bearer secret against: the hash, never the secret. */
export function presentAuthToken(token: TokenDocument, user: UserDocument): AuthToken {
  return {
    id: token.id,
    tenant_id: token.tenant_id,
    user_id: token.user_id,
    secret_hash: token.secret_hash,
    scopes: token.scopes,
    ip_allowlist: token.ip_allowlist,
    rate_limit_per_minute: token.rate_limit_per_minute ?? 0,
    expires_at: token.expires_at ?? undefined,
    user_is_owner: user.is_owner,
    user_permissions: user.permissions,
  };
}

export function presentUsage(
  usage: TokenUsageFigures & { tokenId: number; lastUsedAt: Date | null },
): TokenUsage {
  return {
    token_id: usage.tokenId,
    days: usage.days,
    total_requests: usage.totalRequests,
    error_rate: usage.errorRate,
    p50_ms: usage.p50Ms,
    p95_ms: usage.p95Ms,
    last_used_at: usage.lastUsedAt ?? undefined,
    per_day: usage.perDay,
  };
}

export function presentTokenPolicy(
  policy: TokenPolicy & { updated_at?: Date; updated_by?: number },
): TokenPolicyMessage {
  return {
    max_lifetime_days: policy.max_lifetime_days ?? undefined,
    allow_no_expiry: policy.allow_no_expiry,
    restrict_member_scopes: policy.member_scopes !== null,
    member_scopes: policy.member_scopes ?? [],
    require_ip_allowlist: policy.require_ip_allowlist,
    flag_unused_after_days: policy.flag_unused_after_days ?? undefined,
    expire_unused: policy.expire_unused,
    updated_at: policy.updated_at,
    updated_by: policy.updated_by ?? 0,
  };
}

export function tokenPolicyOf(message: TokenPolicyMessage | undefined): TokenPolicy {
  return {
    max_lifetime_days: message?.max_lifetime_days ?? null,
    allow_no_expiry: message?.allow_no_expiry ?? false,
    member_scopes: message?.restrict_member_scopes ? message.member_scopes : null,
    require_ip_allowlist: message?.require_ip_allowlist ?? false,
    flag_unused_after_days: message?.flag_unused_after_days ?? null,
    expire_unused: message?.expire_unused ?? false,
  };
}

/** A member's token as an admin reviews it (ListTenantTokens). */
export function presentReviewedToken(row: ReviewedToken): TenantToken {
  return {
    token: presentToken(row.token, row.flags),
    user_id: row.token.user_id,
    user_name: row.owner?.name ?? '',
    user_email: row.owner?.email ?? '',
    last_used_ip: row.lastUsedIp,
    last_used_user_agent: row.lastUsedUserAgent,
    state: row.state,
  };
}
