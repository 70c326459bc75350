import type { TokenRequestDocument } from '../store/token-request.js';
import type { RequestQuery, TokenRequestRepository } from '../store/token-request-repository.js';
import type { TokenRepository } from '../store/token-repository.js';
import { ownedToken } from './owned-token.js';

export class ListTokenRequests {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly requests: TokenRequestRepository,
  ) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    query: RequestQuery,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenRequestDocument[]; total: number }> {
    await ownedToken(this.tokens, tenantId, userId, tokenId);
    return this.requests.list(
      tenantId,
      tokenId,
      query,
      Math.max(1, page),
      Math.min(Math.max(1, perPage), 1000),
    );
  }
}
