import type { Connection } from 'mongoose';
import { nextSequence, TenantScopedRepository } from '@inventory/platform';
import { expiryMark } from '../domain/expiry-alerts.js';
import { tokenModel, type TokenDocument } from './token.js';

/** Active: not revoked and not past its expiry. */
function activeFilter(now: Date) {
  return { revoked_at: null, $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

export class TokenRepository extends TenantScopedRepository<TokenDocument> {
  constructor(private readonly connection: Connection) {
    super(tokenModel(connection));
  }

  /** `count` consecutive ids reserved in one write; the first is returned. */
  reserveIds(count: number): Promise<number> {
    return nextSequence(this.connection, 'personal_access_tokens', count);
  }

  /** One user's new tokens, all or none: should the write fail part-way, the ones it made are removed. */
  async insertAll(tenantId: string, tokens: TokenDocument[]): Promise<void> {
    try {
      await this.insertMany(tenantId, tokens);
    } catch (error) {
      await this.deleteMany(tenantId, { id: { $in: tokens.map((token) => token.id) } }).catch(
        () => undefined,
      );
      throw error;
    }
  }

  async remove(tenantId: string, id: number): Promise<void> {
    await this.deleteOne(tenantId, { id });
  }

  countActive(tenantId: string, userId: number, now = new Date()): Promise<number> {
    return this.count(tenantId, { user_id: userId, ...activeFilter(now) });
  }

  /** A user's token that is not revoked (expired ones stay visible and editable). */
  findOwned(tenantId: string, userId: number, id: number): Promise<TokenDocument | null> {
    return this.findOne(tenantId, { id, user_id: userId, revoked_at: null });
  }

  /** Any user's token of the tenant that is not revoked: what an operator may revoke. */
  findUnrevoked(tenantId: string, id: number): Promise<TokenDocument | null> {
    return this.findOne(tenantId, { id, revoked_at: null });
  }

  /** A user's unrevoked tokens with this name (the development seed replaces its own). */
  findOwnedByName(tenantId: string, userId: number, name: string): Promise<TokenDocument[]> {
    return this.findMany(tenantId, { user_id: userId, name, revoked_at: null });
  }

  findForAuth(tenantId: string, id: number, now = new Date()): Promise<TokenDocument | null> {
    return this.findOne(tenantId, { id, ...activeFilter(now) });
  }

  listOwned(
    tenantId: string,
    userId: number,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenDocument[]; total: number }> {
    return this.page(
      tenantId,
      { user_id: userId, revoked_at: null },
      { sort: { id: -1 }, page, perPage },
    );
  }

  /** One page of the tenant's unrevoked tokens, of every user or one, newest first. */
  listTenantPage(
    tenantId: string,
    userId: number | undefined,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenDocument[]; total: number }> {
    const owner = userId === undefined ? {} : { user_id: userId };
    return this.page(tenantId, { ...owner, revoked_at: null }, { sort: { id: -1 }, page, perPage });
  }

  /** Unrevoked tokens by id, of one user or (undefined) of every user: for operators. */
  listUnrevoked(tenantId: string, userId: number | undefined): Promise<TokenDocument[]> {
    const owner = userId === undefined ? {} : { user_id: userId };
    return this.findMany(tenantId, { ...owner, revoked_at: null }, { sort: { id: 1 } });
  }

  update(
    tenantId: string,
    userId: number,
    id: number,
    set: Partial<TokenDocument>,
  ): Promise<TokenDocument | null> {
    // Nothing to change (an empty PATCH, or only unknown keys): no write, updated_at stays.
    if (Object.keys(set).length === 0)
      return this.findOne(tenantId, { id, user_id: userId, revoked_at: null });
    return this.findOneAndUpdate(
      tenantId,
      { id, user_id: userId, revoked_at: null },
      { $set: { ...set, updated_at: new Date() } },
    );
  }

  /** `userId` undefined: any user's token of the tenant (an operator). */
  revoke(tenantId: string, userId: number | undefined, id: number): Promise<TokenDocument | null> {
    const owner = userId === undefined ? {} : { user_id: userId };
    return this.findOneAndUpdate(
      tenantId,
      { id, ...owner, revoked_at: null },
      { $set: { revoked_at: new Date(), updated_at: new Date() } },
    );
  }

  /**
   * Unrevoked tokens whose expiry is at or before `until` and after `since`, of every tenant:
   * what the expiry alerts look at (ADR 0118), oldest expiry first, at most `limit`.
   */
  expiringAcrossTenants(since: Date, until: Date, limit: number): Promise<TokenDocument[]> {
    return this.acrossTenants()
      .find({ revoked_at: null, expires_at: { $gt: since, $lte: until } })
      .sort({ expires_at: 1 })
      .limit(limit)
      .lean<TokenDocument[]>()
      .exec();
  }

  /**
   * Claims one expiry alert of a token: true for the one caller that records `mark` while the
   * token is unrevoked and still expires at `expiresAt` (an extended or revoked token is not
   * claimed), false for every other, on any replica.
   */
  async claimExpiryAlert(
    tenantId: string,
    id: number,
    expiresAt: Date,
    mark: string,
  ): Promise<boolean> {
    const claimed = await this.findOneAndUpdate(
      tenantId,
      { id, revoked_at: null, expires_at: expiresAt, expiry_alerts: { $ne: mark } },
      { $push: { expiry_alerts: mark } },
    );
    return claimed !== null;
  }

  /**
   * A tenant's active tokens last active (used, or made when never used) at or before `before`,
   * oldest activity first: the idle-token pass's candidates (ADR 0122).
   */
  idleCandidates(
    tenantId: string,
    before: Date,
    now: Date,
    limit: number,
  ): Promise<TokenDocument[]> {
    return this.findMany(
      tenantId,
      {
        ...activeFilter(now),
        $and: [
          {
            $or: [
              { last_used_at: { $lte: before } },
              { last_used_at: null, created_at: { $lte: before } },
            ],
          },
        ],
      },
      { sort: { last_used_at: 1, created_at: 1 }, limit },
    );
  }

  /**
   * Records the idle warning of a token still unused since `lastUsedAt` (a use meanwhile, or a
   * warning another replica recorded, wins): true for the one caller that records it.
   */
  async claimIdleWarning(
    tenantId: string,
    id: number,
    lastUsedAt: Date | null,
    warning: { since: Date; at: Date },
  ): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      {
        id,
        revoked_at: null,
        last_used_at: lastUsedAt,
        'idle_warning.since': { $ne: warning.since },
      },
      { $set: { idle_warning: warning } },
    );
    return modified > 0;
  }

  /**
   * Expires a token warned for this idle period and still unused since: its expiry becomes now,
   * with the expiry alert's mark, so the expiry pass does not announce it a second time.
   */
  async expireIdle(
    tenantId: string,
    id: number,
    lastUsedAt: Date | null,
    since: Date,
    now: Date,
  ): Promise<boolean> {
    const { modified } = await this.updateOne(
      tenantId,
      {
        id,
        last_used_at: lastUsedAt,
        'idle_warning.since': since,
        ...activeFilter(now),
      },
      {
        $set: { expires_at: now, updated_at: now },
        $push: { expiry_alerts: expiryMark('expired', now) },
      },
    );
    return modified > 0;
  }

  /** One bulk write for a batch; `$max` only moves forward, so out-of-order batches never set an older time. */
  touchLastUsed(tenantId: string, lastUsed: Map<number, Date>): Promise<void> {
    return this.updateEach(
      tenantId,
      [...lastUsed].map(([id, at]) => ({ filter: { id }, update: { $max: { last_used_at: at } } })),
    );
  }
}
