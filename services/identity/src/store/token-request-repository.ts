import type { Connection } from 'mongoose';
import { TenantScopedRepository, type ScopedFilter } from '@inventory/platform';
import {
  RETIRED_TOKEN_REQUEST_INDEXES,
  tokenRequestModel,
  type TokenRequestDocument,
} from './token-request.js';

export interface RequestQuery {
  statuses: number[];
  statusClasses: number[];
  from?: Date;
  to?: Date;
}

export class TokenRequestRepository extends TenantScopedRepository<TokenRequestDocument> {
  constructor(connection: Connection, retentionDays: number) {
    super(tokenRequestModel(connection, retentionDays));
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
