import type { TokenRequestsLogged } from '@inventory/contracts/events/v1/identity.js';
import type { DomainEvent } from '@inventory/platform';
import type { TokenRequestRepository } from '../store/token-request-repository.js';
import type { TokenRepository } from '../store/token-repository.js';

/** Stores one batch of request-log entries and moves each token's `last_used_at` forward. */
export class RecordTokenRequests {
  constructor(
    private readonly requests: TokenRequestRepository,
    private readonly tokens: TokenRepository,
  ) {}

  async execute(event: DomainEvent<TokenRequestsLogged>): Promise<void> {
    if (!event.tenantId) return;
    const lastUsed = new Map<number, Date>();
    const rows = event.payload.requests
      .filter((entry) => entry.token_id > 0 && entry.id)
      .map((entry) => {
        const at = entry.at ?? event.occurredAt;
        const previous = lastUsed.get(entry.token_id);
        if (!previous || previous < at) lastUsed.set(entry.token_id, at);
        return {
          event_id: entry.id,
          tenant_id: event.tenantId,
          token_id: entry.token_id,
          user_id: entry.user_id,
          method: entry.method.slice(0, 16),
          route: entry.route.slice(0, 512),
          path: entry.path.slice(0, 2048),
          status: entry.status,
          duration_ms: entry.duration_ms,
          ip: entry.ip.slice(0, 64),
          user_agent: entry.user_agent.slice(0, 512),
          at,
        };
      });
    await this.requests.insertMany(event.tenantId, rows);
    await this.tokens.touchLastUsed(event.tenantId, lastUsed);
  }
}
