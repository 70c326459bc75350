import type { WebhookTokenRepository } from '../store/webhook-token-repository.js';

/** Removes a token; idempotent, and only the owning tenant can remove it. */
export class UnregisterToken {
  constructor(private readonly tokens: WebhookTokenRepository) {}

  execute(tenantId: string, token: string): Promise<boolean> {
    return this.tokens.unregister(tenantId, token);
  }
}
