import {
  activityEntry,
  alertEntry,
  PERSONAL_ACCESS_TOKEN_SUBJECT,
  type TokenActivityEventName,
} from '@inventory/events';
import { notFound } from '@inventory/platform';
import type { PolicyRule } from '../domain/token-policy.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenRequestRepository } from '../store/token-request-repository.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';
import type { TokenPolicies } from './token-policy.js';
import { userLabel } from '../domain/user-label.js';

/** One member's token as an admin reviews it: its owner, where it was last used, its flags. */
export interface ReviewedToken {
  token: TokenDocument;
  owner: Pick<UserDocument, 'id' | 'name' | 'email'> | null;
  lastUsedIp: string;
  lastUsedUserAgent: string;
  state: 'active' | 'expired';
  flags: PolicyRule[];
}

interface TenantTokensDeps {
  tokens: TokenRepository;
  users: UserRepository;
  requests: TokenRequestRepository;
  policies: TokenPolicies;
  events: TokenEvents;
}

class AlreadyRevoked extends Error {}

/**
 * Every member's tokens, for the admins the gateway lets (`tokens:govern`, ADR 0121): listed with
 * their owner and last use, and revocable. A revocation reaches every gateway before this
 * returns, alerts the token's owner and is in the activity log, in one outbox write.
 */
export class TenantTokens {
  constructor(private readonly deps: TenantTokensDeps) {}

  async list(
    tenantId: string,
    options: { userId?: number; page: number; perPage: number },
  ): Promise<{ rows: ReviewedToken[]; total: number }> {
    const { rows, total } = await this.deps.tokens.listTenantPage(
      tenantId,
      options.userId,
      Math.max(1, options.page),
      Math.min(Math.max(1, options.perPage), 100),
    );
    const now = new Date();
    const members = await this.deps.users.list(tenantId);
    const users = new Map(members.map((user) => [user.id, user]));
    const flags = await this.deps.policies.flagsOfMany(tenantId, rows, members);
    const reviewed = await Promise.all(
      rows.map(async (token): Promise<ReviewedToken> => {
        const latest = token.last_used_at
          ? await this.deps.requests.latest(tenantId, token.id)
          : undefined;
        const owner = users.get(token.user_id);
        return {
          token,
          owner: owner ? { id: owner.id, name: owner.name, email: owner.email } : null,
          lastUsedIp: latest?.ip ?? '',
          lastUsedUserAgent: latest?.user_agent ?? '',
          state: token.expires_at !== null && token.expires_at <= now ? 'expired' : 'active',
          flags: flags.get(token.id) ?? [],
        };
      }),
    );
    return { rows: reviewed, total };
  }

  async revoke(tenantId: string, adminId: number, tokenId: number): Promise<void> {
    const token = await this.deps.tokens.findUnrevoked(tenantId, tokenId);
    if (!token) throw notFound('Personal access token not found.');
    const [owner, admin] = await Promise.all([
      this.deps.users.findById(tenantId, token.user_id),
      this.deps.users.findById(tenantId, adminId),
    ]);
    const whose = userLabel(owner, token.user_id);
    const by = userLabel(admin, adminId);
    const name = token.name.slice(0, 255);
    const now = new Date();
    const properties = {
      token_id: token.id,
      token_name: token.name,
      user_id: token.user_id,
      user_email: owner?.email ?? null,
      revoked_by: adminId,
    };
    const event: TokenActivityEventName = 'token_revoked_by_admin';
    try {
      await this.deps.events.revoked(
        { tenantId, tokenId: token.id, userId: token.user_id },
        async () => {
          if (!(await this.deps.tokens.revoke(tenantId, undefined, token.id)))
            throw new AlreadyRevoked();
        },
        [
          alertEntry({
            tenantId,
            recipientUserId: token.user_id,
            key: `token_revoked_by_admin:${token.id}`,
            kind: 'token_revoked_by_admin',
            priority: 'high',
            title: 'Personal access token revoked by an admin',
            message: `The token "${name}" of ${whose} was revoked by ${by}. Calls with it are refused; create a new token where it was used.`,
            link: '/settings/developer/tokens',
            properties,
            occurredAt: now,
          }),
          activityEntry({
            tenantId,
            event,
            description: `Personal access token "${name}" of ${whose} revoked by ${by}`,
            subject: { type: PERSONAL_ACCESS_TOKEN_SUBJECT, id: token.id },
            causerId: String(adminId),
            properties,
            occurredAt: now,
          }),
        ],
      );
    } catch (error) {
      // Revoked meanwhile (by its owner, or another admin): gone all the same.
      if (error instanceof AlreadyRevoked) throw notFound('Personal access token not found.');
      throw error;
    }
  }
}
