import { notFound, validationFailed, type FieldViolation } from '@inventory/platform';
import { checkAllowlist, checkName, checkRateLimit, checkScopes } from '../domain/token-rules.js';
import { Violations } from '../domain/validation.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import { confirmElevation } from './confirm-elevation.js';
import type { SecondFactor } from './second-factor.js';
import type { TokenPolicies } from './token-policy.js';

export interface UpdateTokenInput {
  name?: string;
  scopes?: string[];
  ipAllowlist?: string[];
  /** 0 removes the token's own limit. */
  rateLimitPerMinute?: number;
  password?: string;
  twoFactorCode?: string;
  /** The gateway's type errors, answered together with these rules' (one 422). */
  inputViolations?: readonly FieldViolation[];
}

/** The settings a change names (the others are left as they are), checked by the token rules. */
export function settingsToChange(
  input: Pick<UpdateTokenInput, 'name' | 'scopes' | 'ipAllowlist' | 'rateLimitPerMinute'>,
  violations: Violations,
): Partial<TokenDocument> {
  const set: Partial<TokenDocument> = {};
  if (input.name !== undefined) {
    checkName(input.name, violations);
    set.name = input.name.trim();
  }
  if (input.scopes !== undefined) set.scopes = checkScopes(input.scopes, violations);
  if (input.ipAllowlist !== undefined)
    set.ip_allowlist = checkAllowlist(input.ipAllowlist, violations);
  if (input.rateLimitPerMinute !== undefined) {
    if (input.rateLimitPerMinute !== 0) checkRateLimit(input.rateLimitPerMinute, violations);
    set.rate_limit_per_minute = input.rateLimitPerMinute === 0 ? null : input.rateLimitPerMinute;
  }
  return set;
}

export class UpdateToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly secondFactor: SecondFactor,
    private readonly events: TokenEvents,
    private readonly policies: TokenPolicies,
  ) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    input: UpdateTokenInput,
  ): Promise<TokenDocument> {
    const token = await this.tokens.findOwned(tenantId, userId, tokenId);
    if (!token) throw notFound('Personal access token not found.');

    const violations = new Violations(input.inputViolations);
    const set = settingsToChange(input, violations);
    // Only what this edit changes answers to the policy: a token made before it was tightened
    // stays flagged, and can still be renamed.
    const changed = new Set<'scopes' | 'ip_allowlist'>();
    if (set.scopes) changed.add('scopes');
    if (set.ip_allowlist) changed.add('ip_allowlist');
    if (changed.size > 0)
      await this.policies.check(
        tenantId,
        userId,
        {
          expires_at: token.expires_at,
          scopes: set.scopes ?? token.scopes,
          ip_allowlist: set.ip_allowlist ?? token.ip_allowlist,
        },
        violations,
        changed,
      );
    if (!violations.empty) throw validationFailed(violations.list);

    // Adding a :write or :manage scope re-authenticates the user in the same request.
    await confirmElevation(this.users, this.secondFactor, tenantId, userId, {
      before: token.scopes,
      after: set.scopes,
      password: input.password,
      twoFactorCode: input.twoFactorCode,
    });

    const updated = await this.events.changed({ tenantId, tokenId, userId }, () =>
      this.tokens.update(tenantId, userId, tokenId, set),
    );
    if (!updated) throw notFound('Personal access token not found.');
    return updated;
  }
}
