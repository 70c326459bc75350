import { Schema, type Connection, type Model } from 'mongoose';
import { tenantFilter } from '@inventory/platform';

export interface TokenDocument {
  tenant_id: string;
  id: number;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the secret part; the secret itself is never stored. */
  secret_hash: string;
  scopes: string[];
  ip_allowlist: string[];
  rate_limit_per_minute: number | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<TokenDocument>(
  {
    tenant_id: { type: String, required: true },
    id: { type: Number, required: true, unique: true },
    user_id: { type: Number, required: true },
    name: { type: String, required: true },
    secret_hash: { type: String, required: true, unique: true },
    scopes: { type: [String], default: [] },
    ip_allowlist: { type: [String], default: [] },
    rate_limit_per_minute: { type: Number, default: null },
    expires_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
    last_used_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'personal_access_tokens' },
);
schema.index({ tenant_id: 1, user_id: 1, revoked_at: 1 });

/** Active: not revoked and not past its expiry. */
export function activeFilter(now = new Date()) {
  return { revoked_at: null, $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

export class TokenRepository {
  readonly model: Model<TokenDocument>;

  constructor(connection: Connection) {
    this.model = connection.model<TokenDocument>('PersonalAccessToken', schema);
  }

  /** All or none: should the write fail part-way, the ones it made are removed again. */
  async insertAll(tokens: TokenDocument[]): Promise<void> {
    try {
      await this.model.insertMany(tokens);
    } catch (error) {
      await this.model
        .deleteMany({ id: { $in: tokens.map((token) => token.id) } })
        .catch(() => undefined);
      throw error;
    }
  }

  async remove(tenantId: string, id: number): Promise<void> {
    await this.model.deleteOne(tenantFilter<TokenDocument>(tenantId, { id }));
  }

  countActive(tenantId: string, userId: number, now = new Date()) {
    return this.model.countDocuments(
      tenantFilter<TokenDocument>(tenantId, { user_id: userId, ...activeFilter(now) }),
    );
  }

  /** A user's token that is not revoked (expired ones stay visible and editable). */
  findOwned(tenantId: string, userId: number, id: number) {
    return this.model
      .findOne(tenantFilter<TokenDocument>(tenantId, { id, user_id: userId, revoked_at: null }))
      .lean<TokenDocument>();
  }

  findForAuth(tenantId: string, id: number, now = new Date()) {
    return this.model
      .findOne(tenantFilter<TokenDocument>(tenantId, { id, ...activeFilter(now) }))
      .lean<TokenDocument>();
  }

  async listOwned(tenantId: string, userId: number, page: number, perPage: number) {
    const filter = tenantFilter<TokenDocument>(tenantId, { user_id: userId, revoked_at: null });
    const [rows, total] = await Promise.all([
      this.model
        .find(filter)
        .sort({ id: -1 })
        .skip((page - 1) * perPage)
        .limit(perPage)
        .lean<TokenDocument[]>(),
      this.model.countDocuments(filter),
    ]);
    return { rows, total };
  }

  async update(
    tenantId: string,
    userId: number,
    id: number,
    set: Partial<TokenDocument>,
  ): Promise<TokenDocument | null> {
    return this.model
      .findOneAndUpdate(
        tenantFilter<TokenDocument>(tenantId, { id, user_id: userId, revoked_at: null }),
        { $set: { ...set, updated_at: new Date() } },
        { new: true },
      )
      .lean<TokenDocument>();
  }

  async revoke(
    tenantId: string,
    userId: number | undefined,
    id: number,
  ): Promise<TokenDocument | null> {
    const owner = userId === undefined ? {} : { user_id: userId };
    return this.model
      .findOneAndUpdate(
        tenantFilter<TokenDocument>(tenantId, { id, ...owner, revoked_at: null }),
        { $set: { revoked_at: new Date(), updated_at: new Date() } },
        { new: true },
      )
      .lean<TokenDocument>();
  }

  /** One bulk write for a batch; `$max` only moves forward, so out-of-order batches never set an older time. */
  async touchLastUsed(tenantId: string, lastUsed: Map<number, Date>): Promise<void> {
    if (lastUsed.size === 0) return;
    await this.model.bulkWrite(
      [...lastUsed].map(([id, at]) => ({
        updateOne: {
          filter: tenantFilter<TokenDocument>(tenantId, { id }),
          update: { $max: { last_used_at: at } },
        },
      })),
      { ordered: false },
    );
  }
}
