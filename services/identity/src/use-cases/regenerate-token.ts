import { MAX_ACTIVE_TOKENS } from '@inventory/access';
import {
  activityEntry,
  PERSONAL_ACCESS_TOKEN_SUBJECT,
  type TokenActivityEventName,
} from '@inventory/events';
import { notFound, validationFailed } from '@inventory/platform';
import { newTokenSecret, sha256Hex } from '../domain/secrets.js';
import { checkExpiry } from '../domain/token-rules.js';
import { Violations } from '../domain/validation.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import { confirmElevation } from './confirm-elevation.js';
import type { CreatedToken } from './create-token.js';
import type { SecondFactor } from './second-factor.js';
import type { TokenPolicies } from './token-policy.js';
import { tokenLimitReached, withTokenLease } from './token-slots.js';
import { settingsToChange, type UpdateTokenInput } from './update-token.js';

export interface RegenerateTokenInput extends UpdateTokenInput {
  /** The new expiry; undefined: the token never expires (as on creation). */
  expiresAt?: Date;
}

/**
 * A new secret for the same token (ADR 0116): its id, history and settings stay, any setting
 * given changes as an edit would (adding a :write or :manage scope asks for the password), and
 * it gets a new expiry. The new `<id>|<secret>` is answered once. The old secret stops working on
 * the next request: the change reaches every gateway before this returns, as an edit does.
 */
export class RegenerateToken {
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
    input: RegenerateTokenInput,
  ): Promise<CreatedToken> {
    const token = await this.tokens.findOwned(tenantId, userId, tokenId);
    if (!token) throw notFound('Personal access token not found.');
    const now = new Date();
    const violations = new Violations(input.inputViolations);
    const set = settingsToChange(input, violations);
    checkExpiry(input.expiresAt, now, violations);
    // A new secret is a new start: the whole token answers to the policy, as on creation.
    await this.policies.check(
      tenantId,
      userId,
      {
        expires_at: input.expiresAt ?? null,
        scopes: set.scopes ?? token.scopes,
        ip_allowlist: set.ip_allowlist ?? token.ip_allowlist,
      },
      violations,
    );
    if (!violations.empty) throw validationFailed(violations.list);

    await confirmElevation(this.users, this.secondFactor, tenantId, userId, {
      before: token.scopes,
      after: set.scopes,
      password: input.password,
      twoFactorCode: input.twoFactorCode,
    });
    // An expired token brought back takes one of the 50 slots again: counted and written under
    // the user's token lease, as a creation is (ADR 0102).
    const wasExpired = token.expires_at !== null && token.expires_at <= now;
    const secret = newTokenSecret(token.id);
    const event: TokenActivityEventName = 'token_regenerated';
    const write = async () => {
      if (
        wasExpired &&
        (await this.tokens.countActive(tenantId, userId, new Date())) >= MAX_ACTIVE_TOKENS
      )
        throw tokenLimitReached();
      return this.events.changed(
        { tenantId, tokenId, userId },
        () =>
          this.tokens.update(tenantId, userId, tokenId, {
            ...set,
            secret_hash: sha256Hex(secret),
            expires_at: input.expiresAt ?? null,
          }),
        [
          activityEntry({
            tenantId,
            event,
            description: `Personal access token "${(set.name ?? token.name).slice(0, 255)}" regenerated`,
            subject: { type: PERSONAL_ACCESS_TOKEN_SUBJECT, id: token.id },
            causerId: String(userId),
            properties: {
              token_id: token.id,
              expires_at: input.expiresAt?.toISOString() ?? null,
            },
            occurredAt: now,
          }),
        ],
      );
    };
    const updated = wasExpired
      ? await withTokenLease(this.users, tenantId, userId, write)
      : await write();
    if (!updated) throw notFound('Personal access token not found.');
    return { token: updated, plainTextToken: `${updated.id}|${secret}` };
  }
}
