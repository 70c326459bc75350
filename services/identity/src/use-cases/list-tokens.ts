import type { ListTokensResponse } from '@inventory/contracts/identity/v1/identity.js';
import type { UseCaseDeps } from './deps.js';
import { presentToken } from './present.js';

export class ListTokens {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(
    tenantId: string,
    userId: number,
    page: number,
    perPage: number,
  ): Promise<ListTokensResponse> {
    const { rows, total } = await this.deps.store.tokens.listOwned(
      tenantId,
      userId,
      Math.max(1, page),
      Math.min(Math.max(1, perPage), 1000),
    );
    return { tokens: rows.map(presentToken), total };
  }
}
