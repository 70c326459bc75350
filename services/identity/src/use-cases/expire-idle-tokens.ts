import {
  activityEntry,
  alertEntry,
  PERSONAL_ACCESS_TOKEN_SUBJECT,
  type TokenActivityEventName,
} from '@inventory/events';
import { isDuplicateKeyError, type Outbox } from '@inventory/platform';
import { idleStep, idleWarningFrom, lastActivity } from '../domain/idle-tokens.js';
import type { TokenPolicy } from '../domain/token-policy.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenPolicyRepository } from '../store/token-policy-repository.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import { userLabel } from '../domain/user-label.js';

/** Tokens looked at per tenant per pass; the rest wait for the next one. */
const PER_PASS = 1_000;

class NotClaimed extends Error {}

interface IdleDeps {
  policies: TokenPolicyRepository;
  tokens: TokenRepository;
  users: UserRepository;
  outbox: Outbox;
  events: TokenEvents;
}

/**
 * For tenants whose policy expires unused tokens (ADR 0122): warns each token's owner 7 days
 * before (an alert, once per idle period, whichever replica records it first), then expires the
 * token if it is still unused, with an alert and an activity row, and every gateway told before
 * the pass goes on. A token used meanwhile is left alone: both writes match only while its last
 * use is the one the pass read.
 */
export class ExpireIdleTokens {
  constructor(private readonly deps: IdleDeps) {}

  /** One pass; answers how many warnings and expiries this caller made. */
  async execute(now = new Date()): Promise<number> {
    let done = 0;
    for (const policy of await this.deps.policies.expiringUnusedAcrossTenants()) {
      const candidates = await this.deps.tokens.idleCandidates(
        policy.tenant_id,
        idleWarningFrom(policy, now),
        now,
        PER_PASS,
      );
      for (const token of candidates) {
        const step = idleStep(policy, token, now);
        if (step?.kind === 'warn' && (await this.warn(policy, token, step.expiresAt, now))) done++;
        if (step?.kind === 'expire' && (await this.expire(policy, token, now))) done++;
      }
    }
    return done;
  }

  private async describe(token: TokenDocument) {
    const owner = await this.deps.users.findById(token.tenant_id, token.user_id);
    return {
      whose: userLabel(owner, token.user_id),
      name: token.name.slice(0, 255),
      properties: {
        token_id: token.id,
        token_name: token.name,
        user_id: token.user_id,
        last_used_at: token.last_used_at?.toISOString() ?? null,
      },
    };
  }

  private async warn(
    policy: TokenPolicy,
    token: TokenDocument,
    expiresAt: Date,
    now: Date,
  ): Promise<boolean> {
    const tenantId = token.tenant_id;
    const since = lastActivity(token);
    const { whose, name, properties } = await this.describe(token);
    try {
      await this.deps.outbox.withEvents(
        [
          alertEntry({
            tenantId,
            recipientUserId: token.user_id,
            key: `token_idle:${token.id}:${since.getTime()}`,
            kind: 'token_idle_expiring',
            priority: 'normal',
            title: `Personal access token “${name.slice(0, 180)}” will expire unused`,
            message: `The token “${name}” of ${whose} has not been used since ${since.toISOString()}. Your organisation expires tokens unused for ${policy.flag_unused_after_days} days: it will stop working at ${expiresAt.toISOString()} unless it is used before then.`,
            link: '/settings/developer/tokens',
            properties: { ...properties, expires_at: expiresAt.toISOString() },
            occurredAt: now,
          }),
        ],
        async () => {
          if (
            !(await this.deps.tokens.claimIdleWarning(tenantId, token.id, token.last_used_at, {
              since,
              at: now,
            }))
          )
            throw new NotClaimed();
        },
      );
      return true;
    } catch (error) {
      if (error instanceof NotClaimed || isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  private async expire(policy: TokenPolicy, token: TokenDocument, now: Date): Promise<boolean> {
    const tenantId = token.tenant_id;
    const since = lastActivity(token);
    const { whose, name, properties } = await this.describe(token);
    const event: TokenActivityEventName = 'token_expired_unused';
    const reason = `unused since ${since.toISOString()} (the organisation expires tokens unused for ${policy.flag_unused_after_days} days)`;
    try {
      await this.deps.events.changed(
        { tenantId, tokenId: token.id, userId: token.user_id },
        async () => {
          if (
            !(await this.deps.tokens.expireIdle(tenantId, token.id, token.last_used_at, since, now))
          )
            throw new NotClaimed();
        },
        [
          alertEntry({
            tenantId,
            recipientUserId: token.user_id,
            key: `token_expired_unused:${token.id}:${since.getTime()}`,
            kind: 'token_expired_unused',
            priority: 'high',
            title: `Personal access token “${name.slice(0, 180)}” expired unused`,
            message: `The token “${name}” of ${whose} was expired: ${reason}. Regenerate it to use it again.`,
            link: '/settings/developer/tokens',
            properties,
            occurredAt: now,
          }),
          activityEntry({
            tenantId,
            event,
            description: `Personal access token "${name}" of ${whose} expired: ${reason}`,
            subject: { type: PERSONAL_ACCESS_TOKEN_SUBJECT, id: token.id },
            properties,
            occurredAt: now,
          }),
        ],
      );
      return true;
    } catch (error) {
      if (error instanceof NotClaimed || isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
