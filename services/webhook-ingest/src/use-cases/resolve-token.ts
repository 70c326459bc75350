import { notFound } from '@inventory/platform';
import type { WebhookTokenRepository } from '../store/webhook-token-repository.js';
import type { WebhookTokenDocument } from '../store/webhook-token.js';

/** Who an inbound webhook belongs to; NOT_FOUND for an unknown or removed token. */
export class ResolveToken {
  constructor(private readonly tokens: WebhookTokenRepository) {}

  async execute(token: string): Promise<WebhookTokenDocument> {
    const found = token ? await this.tokens.resolveAcrossTenants(token) : null;
    if (!found) throw notFound('The webhook address is not known.');
    return found;
  }
}
