import type { TokenStore } from '../store/token-store.js';

/** Removes a token; idempotent, and only the owning tenant can remove it. */
export class UnregisterToken {
  constructor(private readonly tokens: TokenStore) {}

  execute(tenantId: string, token: string): Promise<boolean> {
    return this.tokens.unregister(tenantId, token);
  }
}
