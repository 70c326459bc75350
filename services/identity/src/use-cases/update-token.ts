import type { Token } from '@inventory/contracts/identity/v1/identity.js';
import { notFound, permissionDenied, validationFailed } from '@inventory/platform';
import { verifyPassword } from '../domain/password.js';
import { addedElevatedScopes } from '../domain/scopes.js';
import { checkAllowlist, checkName, checkRateLimit, checkScopes } from '../domain/token-rules.js';
import { messages, Violations } from '../domain/validation.js';
import type { TokenDocument } from '../store/tokens.js';
import type { UseCaseDeps } from './deps.js';
import { presentToken } from './present.js';
import { checkSecondFactor } from './second-factor.js';
import { withTokenEvent } from './token-events.js';

export interface UpdateTokenInput {
  name?: string;
  scopes?: string[];
  ipAllowlist?: string[];
  /** 0 removes the token's own limit. */
  rateLimitPerMinute?: number;
  password?: string;
  twoFactorCode?: string;
}

export class UpdateToken {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    input: UpdateTokenInput,
  ): Promise<Token> {
    const token = await this.deps.store.tokens.findOwned(tenantId, userId, tokenId);
    if (!token) throw notFound('Personal access token not found.');

    const violations = new Violations();
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
      const user = await this.deps.store.users.findById(tenantId, userId);
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
      if (
        user.two_factor_enabled &&
        !(await checkSecondFactor(this.deps, user, input.twoFactorCode!))
      ) {
        throw permissionDenied(
          'The provided two factor authentication code was invalid.',
          'invalid_two_factor_code',
        );
      }
    }

    const updated = await withTokenEvent(this.deps, 'changed', { tenantId, tokenId, userId }, () =>
      this.deps.store.tokens.update(tenantId, userId, tokenId, set),
    );
    if (!updated) throw notFound('Personal access token not found.');
    return presentToken(updated);
  }
}
