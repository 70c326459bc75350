import type { TokenDocument, TokenRepository } from '../store/tokens.js';

export class ListTokens {
  constructor(private readonly tokens: TokenRepository) {}

  execute(
    tenantId: string,
    userId: number,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenDocument[]; total: number }> {
    return this.tokens.listOwned(
      tenantId,
      userId,
      Math.max(1, page),
      Math.min(Math.max(1, perPage), 1000),
    );
  }
}
