import { userChanged } from '@inventory/events';
import { GatewayEvents } from './gateway-events.js';

/**
 * `identity.user.changed`: what `GET /api/user` shows or the permission checks read changed
 * (name, email, owner flag, permissions, two-factor state), or the user is gone. Every gateway
 * drops its cached user and the user's token records before the caller is answered (ADR 0109).
 * A change of the owner flag or permissions carries the new grants, which outbound-delivery
 * keeps beside the subscriptions the user owns (ADR 0409).
 */
export class UserEvents extends GatewayEvents {
  changed<R>(
    ref: {
      tenantId: string;
      userId: number;
      grants?: { is_owner: boolean; permissions: string[] };
    },
    change: () => Promise<R>,
  ): Promise<R> {
    return this.notify(
      userChanged,
      ref.tenantId,
      {
        user_id: ref.userId,
        has_grants: ref.grants !== undefined,
        is_owner: ref.grants?.is_owner ?? false,
        permissions: ref.grants?.permissions ?? [],
      },
      change,
    );
  }
}
