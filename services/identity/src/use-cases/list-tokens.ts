import type { PolicyRule } from '../domain/token-policy.js';
import type { TokenDocument } from '../store/token.js';
import type { TokenRepository } from '../store/token-repository.js';
import type { TokenPolicies } from './token-policy.js';

export class ListTokens {
  constructor(
    private readonly tokens: TokenRepository,
    private readonly policies: TokenPolicies,
  ) {}

  /** One page of the user's tokens, each with the policy rules it breaks today (ADR 0120). */
  async execute(
    tenantId: string,
    userId: number,
    page: number,
    perPage: number,
  ): Promise<{ rows: TokenDocument[]; total: number; flags: Map<number, PolicyRule[]> }> {
    const { rows, total } = await this.tokens.listOwned(
      tenantId,
      userId,
      Math.max(1, page),
      Math.min(Math.max(1, perPage), 1000),
    );
    return { rows, total, flags: await this.policies.flagsFor(tenantId, userId, rows) };
  }
}
