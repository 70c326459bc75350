import {
  notFound,
  permissionDenied,
  validationFailed,
  type FieldViolation,
} from '@inventory/platform';
import { verifyPassword } from '../domain/password.js';
import { addedElevatedScopes } from '@inventory/access';
import { checkAllowlist, checkName, checkRateLimit, checkScopes } from '../domain/token-rules.js';
import { messages, Violations } from '../domain/validation.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenDocument, TokenRepository } from '../store/tokens.js';
import type { UserRepository } from '../store/users.js';
import { twoFactorRefusal, type SecondFactor } from './second-factor.js';

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

export class UpdateToken {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly secondFactor: SecondFactor,
    private readonly events: TokenEvents,
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
    if (!violations.empty) throw validationFailed(violations.list);

    // Adding a :write or :manage scope re-authenticates the user in the same request.
    if (set.scopes && addedElevatedScopes(token.scopes, set.scopes).length > 0) {
      const user = await this.users.findById(tenantId, userId);
      if (!user) throw notFound('User not found.');
      const missing = [];
      if (!input.password)
        missing.push({ field: 'password', description: messages.required('password') });
      if (user.two_factor_enabled && !input.twoFactorCode)
        missing.push({
          field: 'two_factor_code',
          description: messages.required('two_factor_code'),
        });
      if (missing.length > 0) throw validationFailed(missing);
      if (!(await verifyPassword(input.password!, user.password_hash)))
        throw permissionDenied('The provided password is incorrect.', 'invalid_password');
      if (user.two_factor_enabled) {
        const outcome = await this.secondFactor.verify(user, input.twoFactorCode!);
        if (outcome !== 'ok')
          throw permissionDenied(twoFactorRefusal(outcome), 'invalid_two_factor_code');
      }
    }

    const updated = await this.events.changed({ tenantId, tokenId, userId }, () =>
      this.tokens.update(tenantId, userId, tokenId, set),
    );
    if (!updated) throw notFound('Personal access token not found.');
    return updated;
  }
}
