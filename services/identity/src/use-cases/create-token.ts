import { randomUUID } from 'node:crypto';
import type { CreateTokenResponse } from '@inventory/contracts/identity/v1/identity.js';
import {
  failedPrecondition,
  nextSequence,
  notFound,
  unavailable,
  validationFailed,
} from '@inventory/platform';
import { newTokenSecret, sha256Hex } from '../domain/secrets.js';
import {
  checkAllowlist,
  checkExpiry,
  checkName,
  checkRateLimit,
  checkScopes,
  MAX_ACTIVE_TOKENS,
} from '../domain/token-rules.js';
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

const LEASE_MS = 5_000;
const WAIT_LIMIT_MS = 4_000;

/**
 * The 50-token limit is race-safe (docs/decisions/0102-token-limit.md): a
 * user's creations run one at a time, in this process through a promise chain
 * per user and across replicas through a short lease on the user document, so
 * "count, then insert" can never interleave with another creation.
 */
export class CreateToken {
  private readonly chains = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: UseCaseDeps) {}

  async execute(
    tenantId: string,
    userId: number,
    input: CreateTokenInput,
  ): Promise<CreateTokenResponse> {
    const violations = new Violations();
    checkName(input.name, violations);
    const scopes = checkScopes(input.scopes, violations);
    const allowlist = checkAllowlist(input.ipAllowlist, violations);
    checkRateLimit(input.rateLimitPerMinute, violations);
    checkExpiry(input.expiresAt, new Date(), violations);
    if (!violations.empty) throw validationFailed(violations.list);
    return this.serialised(`${tenantId}:${userId}`, () =>
      this.withLease(tenantId, userId, () =>
        this.create(tenantId, userId, input, scopes, allowlist),
      ),
    );
  }

  private serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.chains.set(key, next);
    void next
      .catch(() => undefined)
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    return next;
  }

  private async withLease<T>(tenantId: string, userId: number, task: () => Promise<T>): Promise<T> {
    const { users } = this.deps.store;
    if (!(await users.findById(tenantId, userId))) throw notFound('User not found.');
    const owner = randomUUID();
    const deadline = Date.now() + WAIT_LIMIT_MS;
    while (!(await users.acquireTokenLease(tenantId, userId, owner, LEASE_MS))) {
      if (Date.now() > deadline)
        throw unavailable(
          'token_create_contended',
          'Another token is being created for this user; try again.',
        );
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
    try {
      return await task();
    } finally {
      await users.releaseTokenLease(tenantId, userId, owner);
    }
  }

  private async create(
    tenantId: string,
    userId: number,
    input: CreateTokenInput,
    scopes: string[],
    allowlist: string[],
  ): Promise<CreateTokenResponse> {
    const { tokens } = this.deps.store;
    const now = new Date();
    if ((await tokens.countActive(tenantId, userId, now)) >= MAX_ACTIVE_TOKENS) {
      throw failedPrecondition(
        'token_limit_reached',
        `You may hold at most ${MAX_ACTIVE_TOKENS} active personal access tokens. Revoke one first.`,
      );
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
    return { token: presentToken(token), plain_text_token: `${token.id}|${secret}` };
  }
}
