import { status as GrpcStatus } from '@grpc/grpc-js';
import { MAX_ACTIVE_TOKENS } from '@inventory/access';
import { AppError, type FieldViolation, validationFailed } from '@inventory/platform';
import { newTokenSecret, sha256Hex } from '../domain/secrets.js';
import {
  checkAllowlist,
  checkExpiry,
  checkName,
  checkRateLimit,
  checkScopes,
} from '../domain/token-rules.js';
import { Violations } from '../domain/validation.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import type { TokenPolicies } from './token-policy.js';
import { tokenLimitReached, withTokenLease } from './token-slots.js';

/** A token made, with the plain `<id>|<secret>` its caller sees once. */
export interface CreatedToken {
  token: TokenDocument;
  plainTextToken: string;
}

export interface CreateTokenInput {
  name: string;
  scopes: string[];
  expiresAt?: Date;
  ipAllowlist: string[];
  rateLimitPerMinute?: number;
  /** The gateway's type errors, answered together with these rules' (one 422). */
  inputViolations?: readonly FieldViolation[];
}

interface PendingCreation {
  input: CreateTokenInput;
  scopes: string[];
  allowlist: string[];
  /** Aborted when the caller has gone (its deadline passed, or it cancelled). */
  signal?: AbortSignal;
  resolve(response: CreatedToken): void;
  reject(error: unknown): void;
}

const callerGone = () =>
  new AppError(
    GrpcStatus.CANCELLED,
    'request_cancelled',
    'The request ended before the token was created.',
  );

/**
 * The 50-token limit is race-safe (docs/decisions/0102-token-limit.md): a
 * user's creations run one group at a time, in this process through a queue
 * per user and across replicas through a short lease on the user document, so
 * "count, then insert" can never interleave with another creation. The
 * creations that queued up while a group ran form the next group, which costs
 * one lease, one count, one id reservation and one insert however large it is,
 * so a burst is answered well inside the caller's deadline.
 */
export class CreateToken {
  private readonly queues = new Map<string, PendingCreation[]>();
  private readonly draining = new Set<string>();

  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly policies: TokenPolicies,
  ) {}

  async execute(
    tenantId: string,
    userId: number,
    input: CreateTokenInput,
    signal?: AbortSignal,
  ): Promise<CreatedToken> {
    const violations = new Violations(input.inputViolations);
    checkName(input.name, violations);
    const scopes = checkScopes(input.scopes, violations);
    const allowlist = checkAllowlist(input.ipAllowlist, violations);
    checkRateLimit(input.rateLimitPerMinute, violations);
    checkExpiry(input.expiresAt, new Date(), violations);
    await this.policies.check(
      tenantId,
      userId,
      { expires_at: input.expiresAt ?? null, scopes, ip_allowlist: allowlist },
      violations,
    );
    if (!violations.empty) throw validationFailed(violations.list);
    return new Promise((resolve, reject) => {
      const key = `${tenantId}:${userId}`;
      const queue = this.queues.get(key) ?? [];
      queue.push({ input, scopes, allowlist, signal, resolve, reject });
      this.queues.set(key, queue);
      // On the next turn, so the creations that arrive in this one join the first group.
      if (!this.draining.has(key)) {
        this.draining.add(key);
        setImmediate(() => void this.drain(key, tenantId, userId));
      }
    });
  }

  private async drain(key: string, tenantId: string, userId: number): Promise<void> {
    try {
      for (let group = this.take(key); group.length > 0; group = this.take(key)) {
        // Settled only once the lease is released, so a caller that goes on to create
        // another token (or closes the connection) never finds it still held.
        await this.createGroup(tenantId, userId, group).then(
          (outcomes) =>
            group.forEach((pending, index) => {
              const outcome = outcomes[index]!;
              if (outcome instanceof Error) pending.reject(outcome);
              else pending.resolve(outcome);
            }),
          (error: unknown) => group.forEach((pending) => pending.reject(error)),
        );
      }
    } finally {
      this.draining.delete(key);
    }
  }

  private take(key: string): PendingCreation[] {
    const queue = this.queues.get(key) ?? [];
    this.queues.delete(key);
    return queue;
  }

  /** One outcome per creation, in order: the token made, or why not. */
  private createGroup(
    tenantId: string,
    userId: number,
    group: PendingCreation[],
  ): Promise<Array<CreatedToken | Error>> {
    return withTokenLease(this.users, tenantId, userId, async () => {
      const now = new Date();
      let room = Math.max(
        0,
        MAX_ACTIVE_TOKENS - (await this.tokens.countActive(tenantId, userId, now)),
      );
      const outcomes: Array<CreatedToken | Error> = [];
      const admitted: number[] = [];
      group.forEach((pending, index) => {
        // A caller that has gone would never see the secret, yet the token would take
        // one of its 50 slots: skip it. Otherwise first come, first served.
        if (pending.signal?.aborted) outcomes[index] = callerGone();
        else if (room > 0) {
          admitted.push(index);
          room--;
        } else outcomes[index] = tokenLimitReached();
      });
      if (admitted.length === 0) return outcomes;
      const firstId = await this.tokens.reserveIds(admitted.length);
      const created = admitted.map((index, n) =>
        newToken(tenantId, userId, firstId + n, group[index]!, now),
      );
      await this.tokens.insertAll(
        tenantId,
        created.map(({ token }) => token),
      );
      created.forEach(({ token, secret }, n) => {
        outcomes[admitted[n]!] = { token, plainTextToken: `${token.id}|${secret}` };
      });
      return outcomes;
    });
  }
}

function newToken(
  tenantId: string,
  userId: number,
  id: number,
  { input, scopes, allowlist }: PendingCreation,
  now: Date,
): { token: TokenDocument; secret: string } {
  const secret = newTokenSecret(id);
  return {
    secret,
    token: {
      tenant_id: tenantId,
      id,
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
    },
  };
}
