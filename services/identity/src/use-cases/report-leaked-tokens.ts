import {
  activityEntry,
  alertEntry,
  PERSONAL_ACCESS_TOKEN_SUBJECT,
  type TokenActivityEventName,
} from '@inventory/events';
import { parseToken } from '@inventory/access';
import { hashesEqual, sha256Hex } from '../domain/secrets.js';
import type { TokenEvents } from '../events/token-events.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import { userLabel } from '../domain/user-label.js';

/** At most this many tokens are read from one report (the gateway admits no more). */
export const MAX_REPORTED_TOKENS = 100;
/** How much of the place it was found the alert's text repeats (its properties keep it whole). */
const SHOWN_URL = 300;

class AlreadyRevoked extends Error {}

/**
 * Tokens reported as leaked (ADR 0115), like GitHub's credential revocation API: each one whose
 * whole secret matches an unrevoked token of the tenant is revoked at once (the gateways told
 * before this returns, as any revocation), with an in-app alert naming its owner and where it
 * was found, and an activity row, recorded together with the revocation. A token id with a wrong
 * or partial secret changes nothing. The caller learns nothing either way.
 */
export class ReportLeakedTokens {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly events: TokenEvents,
  ) {}

  async execute(tenantId: string, reported: readonly string[], url: string): Promise<void> {
    for (const text of new Set(reported.slice(0, MAX_REPORTED_TOKENS))) {
      const parsed = parseToken(text);
      if (!parsed) continue;
      const token = await this.tokens.findUnrevoked(tenantId, parsed.id);
      // The stored hash is compared in constant time; only the whole secret matches it.
      if (!token || !hashesEqual(sha256Hex(parsed.secret), token.secret_hash)) continue;
      await this.revoke(tenantId, token, url);
    }
  }

  private async revoke(tenantId: string, token: TokenDocument, url: string): Promise<void> {
    const now = new Date();
    const owner = await this.users.findById(tenantId, token.user_id);
    const whose = userLabel(owner, token.user_id);
    const where = url === '' ? 'an unnamed place' : url.slice(0, SHOWN_URL);
    const properties = {
      token_id: token.id,
      token_name: token.name,
      user_id: token.user_id,
      user_email: owner?.email ?? null,
      url,
    };
    const event: TokenActivityEventName = 'token_revoked_as_leaked';
    try {
      await this.events.revoked(
        { tenantId, tokenId: token.id, userId: token.user_id },
        async () => {
          // Two reports of one token race: only the one that revokes it alerts.
          if (!(await this.tokens.revoke(tenantId, undefined, token.id)))
            throw new AlreadyRevoked();
        },
        [
          alertEntry({
            tenantId,
            recipientUserId: token.user_id,
            key: `token_leak_reported:${token.id}`,
            kind: 'token_leak_reported',
            priority: 'high',
            title: 'Personal access token revoked: reported as leaked',
            message: `The token "${token.name.slice(0, 255)}" of ${whose} was reported as leaked (found at ${where}) and has been revoked. Create a new token where it was used.`,
            link: '/settings/developer/tokens',
            properties,
            occurredAt: now,
          }),
          activityEntry({
            tenantId,
            event,
            description: `Personal access token "${token.name.slice(0, 255)}" revoked: reported as leaked (found at ${where})`,
            subject: { type: PERSONAL_ACCESS_TOKEN_SUBJECT, id: token.id },
            properties,
            occurredAt: now,
          }),
        ],
      );
    } catch (error) {
      if (!(error instanceof AlreadyRevoked)) throw error;
    }
  }
}
