import type {
  ListTokenRequestsResponse,
  TokenUsage,
} from '@inventory/contracts/identity/v1/identity.js';
import { notFound } from '@inventory/platform';
import type { RequestQuery } from '../store/token-requests.js';
import type { UseCaseDeps } from './deps.js';
import { presentRequest } from './present.js';

async function assertOwned(deps: UseCaseDeps, tenantId: string, userId: number, tokenId: number) {
  const token = await deps.store.tokens.findOwned(tenantId, userId, tokenId);
  if (!token) throw notFound('Personal access token not found.');
  return token;
}

export class ListTokenRequests {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    query: RequestQuery,
    page: number,
    perPage: number,
  ): Promise<ListTokenRequestsResponse> {
    await assertOwned(this.deps, tenantId, userId, tokenId);
    const { rows, total } = await this.deps.store.requests.list(
      tenantId,
      tokenId,
      query,
      Math.max(1, page),
      Math.min(Math.max(1, perPage), 1000),
    );
    return { requests: rows.map(presentRequest), total };
  }
}

/** Rows read to compute one usage answer; past this the figures cover the newest rows only. */
export const USAGE_ROW_CAP = 200_000;

function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return Math.round(sorted[index]! * 100) / 100;
}

/** Requests per day, error rate (status >= 400) and p50/p95 latency over the last `days` days. */
export class GetTokenUsage {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(
    tenantId: string,
    userId: number,
    tokenId: number,
    days: number,
    now = new Date(),
  ): Promise<TokenUsage> {
    const token = await assertOwned(this.deps, tenantId, userId, tokenId);
    const window = Math.min(Math.max(1, days || 30), 90);
    const start = new Date(
      Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (window - 1)),
    );
    const rows = await this.deps.store.requests.window(tenantId, tokenId, start, USAGE_ROW_CAP);
    const perDay = new Map<string, { requests: number; errors: number }>();
    for (let i = 0; i < window; i++) {
      perDay.set(new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10), {
        requests: 0,
        errors: 0,
      });
    }
    let errors = 0;
    for (const row of rows) {
      const day = perDay.get(row.at.toISOString().slice(0, 10));
      const failed = row.status >= 400;
      if (failed) errors++;
      if (day) {
        day.requests++;
        if (failed) day.errors++;
      }
    }
    const durations = rows.map((row) => row.duration_ms).sort((a, b) => a - b);
    return {
      token_id: tokenId,
      days: window,
      total_requests: rows.length,
      error_rate: rows.length === 0 ? 0 : Math.round((errors / rows.length) * 10_000) / 10_000,
      p50_ms: percentile(durations, 0.5),
      p95_ms: percentile(durations, 0.95),
      last_used_at: token.last_used_at ?? undefined,
      per_day: [...perDay.entries()].map(([date, counts]) => ({ date, ...counts })),
    };
  }
}
