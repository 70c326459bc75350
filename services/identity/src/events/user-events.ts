import { userChanged } from '@inventory/events';
import { GatewayEvents } from './gateway-events.js';

/**
 * `identity.user.changed`: what `GET /api/user` shows or the permission checks read changed
 * (name, email, owner flag, permissions, two-factor state), or the user is gone. Every gateway
 * drops its cached user and the user's token records before the caller is answered (ADR 0109).
 */
export class UserEvents extends GatewayEvents {
  changed<R>(ref: { tenantId: string; userId: number }, change: () => Promise<R>): Promise<R> {
    return this.notify(userChanged, ref.tenantId, { user_id: ref.userId }, change);
  }
}
