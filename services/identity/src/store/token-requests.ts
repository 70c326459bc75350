import { Schema, type Connection } from 'mongoose';
import { TenantScopedRepository, type ScopedFilter } from '@inventory/platform';

export interface TokenRequestDocument {
  event_id: string;
  tenant_id: string;
  token_id: number;
  user_id: number;
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  ip: string;
  user_agent: string;
  at: Date;
}

function buildSchema(retentionDays: number) {
  const schema = new Schema<TokenRequestDocument>(
    {
      // The entry's id, and also the row's `_id` (`insertMany`): the `_id` index makes a redelivered
      // entry a duplicate, where a unique index of its own cost every insert one more index write.
      event_id: { type: String, required: true },
      tenant_id: { type: String, required: true },
      token_id: { type: Number, required: true },
      user_id: { type: Number, required: true },
      method: { type: String, required: true },
      route: { type: String, default: '' },
      path: { type: String, default: '' },
      status: { type: Number, required: true },
      duration_ms: { type: Number, required: true },
      ip: { type: String, default: '' },
      user_agent: { type: String, default: '' },
      at: { type: Date, required: true },
    },
    { versionKey: false, collection: 'token_requests' },
  );
  // A token's history, newest first: `_id` last, as the list's tie-break, so the index serves the
  // whole sort and a page reads only its rows (with `at` alone, every request of the token was read
  // and sorted for each page).
  schema.index({ tenant_id: 1, token_id: 1, at: -1, _id: -1 });
  schema.index({ at: 1 }, { expireAfterSeconds: retentionDays * 24 * 3600 });
  return schema;
}

export interface RequestQuery {
  statuses: number[];
  statusClasses: number[];
  from?: Date;
  to?: Date;
}

/** Indexes the schema no longer declares, dropped at start. */
export const RETIRED_TOKEN_REQUEST_INDEXES = ['tenant_id_1_token_id_1_at_-1'];

export class TokenRequestRepository extends TenantScopedRepository<TokenRequestDocument> {
  constructor(connection: Connection, retentionDays: number) {
    super(connection.model<TokenRequestDocument>('TokenRequest', buildSchema(retentionDays)));
  }

  dropRetiredIndexes(): Promise<string[]> {
    return this.dropIndexes(RETIRED_TOKEN_REQUEST_INDEXES);
  }

  /** One tenant's batch in one bulk write; idempotent by event id (a redelivered batch adds nothing). */
  override async insertMany(tenantId: string, rows: TokenRequestDocument[]): Promise<void> {
    // `lean` inserts as given, so `_id` stays the entry's id (a string) rather than an ObjectId.
    await super.insertMany(
      tenantId,
      rows.map((row) => ({ _id: row.event_id, ...row })),
      { ordered: false, lean: true, skipDuplicates: true },
    );
  }

  private filter(tokenId: number, query: RequestQuery): ScopedFilter<TokenRequestDocument> {
    const filter: Record<string, unknown> = { token_id: tokenId };
    const statusOr: Array<Record<string, unknown>> = [];
    if (query.statuses.length > 0) statusOr.push({ status: { $in: query.statuses } });
    for (const cls of query.statusClasses)
      statusOr.push({ status: { $gte: cls * 100, $lt: cls * 100 + 100 } });
    if (statusOr.length > 0) filter.$or = statusOr;
    if (query.from || query.to)
      filter.at = {
        ...(query.from ? { $gte: query.from } : {}),
        ...(query.to ? { $lte: query.to } : {}),
      };
    return filter as ScopedFilter<TokenRequestDocument>;
  }

  list(
    tenantId: string,
    tokenId: number,
    query: RequestQuery,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenRequestDocument[]; total: number }> {
    return this.page(tenantId, this.filter(tokenId, query), {
      sort: { at: -1, _id: -1 },
      page,
      perPage,
    });
  }

  /** A token's newest logged request: where and with what it was last used. */
  async latest(tenantId: string, tokenId: number): Promise<TokenRequestDocument | undefined> {
    const [row] = await this.findMany(
      tenantId,
      { token_id: tokenId },
      { sort: { at: -1, _id: -1 }, limit: 1 },
    );
    return row;
  }

  /** Status, duration and time of the window's requests, newest first, capped for memory. */
  window(
    tenantId: string,
    tokenId: number,
    since: Date,
    cap: number,
  ): Promise<Array<Pick<TokenRequestDocument, 'status' | 'duration_ms' | 'at'>>> {
    return this.findMany(
      tenantId,
      { token_id: tokenId, at: { $gte: since } },
      { projection: { status: 1, duration_ms: 1, at: 1, _id: 0 }, sort: { at: -1 }, limit: cap },
    );
  }
}
