import { alertEntry } from '@inventory/events';
import { isDuplicateKeyError, type Outbox } from '@inventory/platform';
import {
  EXPIRED_ALERT_LOOKBACK_MS,
  EXPIRY_WARNING_AHEAD_MS,
  expiryMark,
  expiryStage,
  type ExpiryStage,
} from '../domain/expiry-alerts.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { UserRepository } from '../store/user-repository.js';
import { userLabel } from '../domain/user-label.js';

/** Tokens looked at per pass; the rest wait for the next one. */
const PER_PASS = 5_000;

class NotClaimed extends Error {}

const WHEN: Record<ExpiryStage, string> = {
  '7d': 'expires within 7 days',
  '1d': 'expires within a day',
  expired: 'has expired',
};

/**
 * The in-app alerts about tokens that will expire (7 days and 1 day before) or have (ADR 0118).
 * Each stage of each expiry is raised once: the alert goes into the outbox together with a
 * conditional write that records the stage on the token, and only the caller whose write matched
 * (on any replica) keeps its event (one inserting the same event meanwhile is refused by the
 * outbox's unique event id, derived from the key); the alert's key is the same mark, so the activity service
 * would store one alert even if two were sent. The write matches only an unrevoked token that
 * still expires when it was read, so a revoked or extended one is not warned about.
 */
export class RaiseExpiryAlerts {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly outbox: Outbox,
  ) {}

  /** One pass; answers how many alerts this caller raised. */
  async execute(now = new Date()): Promise<number> {
    const due = await this.tokens.expiringAcrossTenants(
      new Date(now.getTime() - EXPIRED_ALERT_LOOKBACK_MS),
      new Date(now.getTime() + EXPIRY_WARNING_AHEAD_MS),
      PER_PASS,
    );
    let raised = 0;
    for (const token of due) {
      const stage = expiryStage(token.expires_at!, now);
      if (!stage) continue;
      const mark = expiryMark(stage, token.expires_at!);
      if (token.expiry_alerts?.includes(mark)) continue;
      if (await this.raise(token, stage, mark, now)) raised++;
    }
    return raised;
  }

  private async raise(
    token: TokenDocument,
    stage: ExpiryStage,
    mark: string,
    now: Date,
  ): Promise<boolean> {
    const tenantId = token.tenant_id;
    const expiresAt = token.expires_at!;
    const owner = await this.users.findById(tenantId, token.user_id);
    const whose = userLabel(owner, token.user_id);
    const name = token.name.slice(0, 255);
    try {
      await this.outbox.withEvents(
        [
          alertEntry({
            tenantId,
            recipientUserId: token.user_id,
            key: `token_expiry:${token.id}:${mark}`,
            kind: stage === 'expired' ? 'token_expired' : 'token_expiring',
            priority: stage === '7d' ? 'normal' : 'high',
            title:
              stage === 'expired'
                ? `Personal access token “${name.slice(0, 180)}” expired`
                : `Personal access token “${name.slice(0, 180)}” ${WHEN[stage]}`,
            message: `The token “${name}” of ${whose} ${WHEN[stage]} (${expiresAt.toISOString()}). ${
              stage === 'expired'
                ? 'Calls with it are refused; regenerate it to give it a new secret and expiry.'
                : 'Regenerate it before then, or calls with it will be refused.'
            }`,
            link: '/settings/developer/tokens',
            properties: {
              token_id: token.id,
              token_name: token.name,
              user_id: token.user_id,
              stage,
              expires_at: expiresAt.toISOString(),
            },
            occurredAt: now,
          }),
        ],
        async () => {
          if (!(await this.tokens.claimExpiryAlert(tenantId, token.id, expiresAt, mark)))
            throw new NotClaimed();
        },
      );
      return true;
    } catch (error) {
      // Another replica's pass is raising the same alert: its event id (from the key) is taken.
      if (error instanceof NotClaimed || isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
