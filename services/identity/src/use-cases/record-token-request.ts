import type { TokenRequestLogged } from '@inventory/contracts/events/v1/identity.js';
import type { DomainEvent } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';

/** Stores one request-log event (idempotent by event id) and moves `last_used_at` forward. */
export class RecordTokenRequest {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(event: DomainEvent<TokenRequestLogged>): Promise<void> {
    const { payload } = event;
    if (!event.tenantId || !payload.token_id) return;
    const at = payload.at ?? event.occurredAt;
    await this.deps.store.requests.insert({
      event_id: event.id,
      tenant_id: event.tenantId,
      token_id: payload.token_id,
      user_id: payload.user_id,
      method: payload.method.slice(0, 16),
      route: payload.route.slice(0, 512),
      path: payload.path.slice(0, 2048),
      status: payload.status,
      duration_ms: payload.duration_ms,
      ip: payload.ip.slice(0, 64),
      user_agent: payload.user_agent.slice(0, 512),
      at,
    });
    await this.deps.store.tokens.touchLastUsed(event.tenantId, payload.token_id, at);
  }
}
