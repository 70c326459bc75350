import { notFound } from '@inventory/platform';
import type { TokenDocument, TokenStore } from '../store/token-store.js';

/** Who an inbound webhook belongs to; NOT_FOUND for an unknown or removed token. */
export class ResolveToken {
  constructor(private readonly tokens: TokenStore) {}

  async execute(token: string): Promise<TokenDocument> {
    const found = token ? await this.tokens.resolveAcrossTenants(token) : null;
    if (!found) throw notFound('The webhook address is not known.');
    return found;
  }
}
