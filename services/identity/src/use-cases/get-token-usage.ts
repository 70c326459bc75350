import { tokenUsage, usageWindow, type TokenUsageFigures } from '../domain/token-usage.js';
import type { TokenRequestRepository } from '../store/token-request-repository.js';
import type { TokenRepository } from '../store/token-repository.js';
import { ownedToken } from './owned-token.js';

/** Rows read to compute one usage answer; past this the figures cover the newest rows only. */
export const USAGE_ROW_CAP = 200_000;

/** Requests per day, error rate (status >= 400) and p50/p95 latency over the last `days` days. */
export class GetTokenUsage {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly requests: TokenRequestRepository,
  ) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    days: number,
    now = new Date(),
  ): Promise<TokenUsageFigures & { tokenId: number; lastUsedAt: Date | null }> {
    const token = await ownedToken(this.tokens, tenantId, userId, tokenId);
    const window = usageWindow(days, now);
    const rows = await this.requests.window(tenantId, tokenId, window.start, USAGE_ROW_CAP);
    return { tokenId, lastUsedAt: token.last_used_at, ...tokenUsage(rows, window) };
  }
}
