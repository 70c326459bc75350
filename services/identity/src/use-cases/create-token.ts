import type { CreateTokenResponse } from '@inventory/contracts/identity/v1/identity.js';
import { failedPrecondition, nextSequence, notFound, unavailable, validationFailed } from '@inventory/platform';
import { newTokenSecret, sha256Hex } from '../domain/secrets.js';
import { checkAllowlist, checkExpiry, checkName, checkRateLimit, checkScopes, MAX_ACTIVE_TOKENS } from '../domain/token-rules.js';
import { Violations } from '../domain/validation.js';
import type { TokenDocument } from '../store/tokens.js';
import type { UseCaseDeps } from './deps.js';
import { presentToken } from './present.js';

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  expiresAt?: Date;
  ipAllowlist: string[];
  rateLimitPerMinute?: number;
}

const MAX_ATTEMPTS = 100;

export class CreateToken {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, userId: number, input: CreateTokenInput): Promise<CreateTokenResponse> {
    const violations = new Violations();
    checkName(input.name, violations);
    const scopes = checkScopes(input.scopes, violations);
    const allowlist = checkAllowlist(input.ipAllowlist, violations);
    checkRateLimit(input.rateLimitPerMinute, violations);
    const now = new Date();
    checkExpiry(input.expiresAt, now, violations);
    if (!violations.empty) throw validationFailed(violations.list);

    const { users, tokens } = this.deps.store;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Optimistic lock on the user's token_version (docs/decisions/0102-token-limit.md):
      // read the version, count, insert, then compare-and-set the version. Of two
      // overlapping creations only one can win a version, and the winner's count
      // saw every earlier winner's token; a loser removes its token and retries.
      const user = await users.findById(tenantId, userId);
      if (!user) throw notFound('User not found.');
      if ((await tokens.countActive(tenantId, userId, new Date())) >= MAX_ACTIVE_TOKENS) {
        throw failedPrecondition('token_limit_reached', `You may hold at most ${MAX_ACTIVE_TOKENS} active personal access tokens. Revoke one first.`);
      }
      const secret = newTokenSecret();
      const token: TokenDocument = {
        tenant_id: tenantId,
        id: await nextSequence(this.deps.store.connection, 'personal_access_tokens'),
        user_id: userId,
        name: input.name.trim(),
        secret_hash: sha256Hex(secret),
        scopes,
        ip_allowlist: allowlist,
        rate_limit_per_minute: input.rateLimitPerMinute ?? null,
        expires_at: input.expiresAt ?? null,
        revoked_at: null,
        last_used_at: null,
        created_at: now,
        updated_at: now,
      };
      await tokens.insert(token);
      if (await users.bumpTokenVersion(tenantId, userId, user.token_version)) {
        return { token: presentToken(token), plain_text_token: `${token.id}|${secret}` };
      }
      await tokens.remove(tenantId, token.id);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
    }
    throw unavailable('token_create_contended', 'Too many concurrent token creations; try again.');
  }
}
