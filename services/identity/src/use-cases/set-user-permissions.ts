import { PERMISSIONS } from '@inventory/access';
import { validationFailed } from '@inventory/platform';
import { messages, Violations } from '../domain/validation.js';
import type { UserEvents } from '../events/user-events.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';
import { loadUser } from './load-user.js';

export interface UserGrants {
  isOwner: boolean;
  permissions: string[];
}

/**
 * Replaces a user's owner flag and permissions (an operator command). The change is announced
 * with the new grants: every gateway drops the cached user, and outbound-delivery stops sending
 * the events the user may no longer read to subscriptions the user owns (ADR 0409).
 */
export class SetUserPermissions {
  constructor(
    private readonly users: UserRepository,
    private readonly events: UserEvents,
  ) {}

  async execute(tenantId: string, userId: number, grants: UserGrants): Promise<UserDocument> {
    const violations = new Violations();
    grants.permissions.forEach((permission, index) => {
      if (!PERMISSIONS.includes(permission))
        violations.add(`permissions.${index}`, messages.invalid(`permissions.${index}`));
    });
    if (!violations.empty) throw validationFailed(violations.list);
    const user = await loadUser(this.users, tenantId, userId);
    const change = { is_owner: grants.isOwner, permissions: [...new Set(grants.permissions)] };
    await this.events.changed({ tenantId, userId, grants: change }, () =>
      this.users.update(tenantId, userId, change),
    );
    return { ...user, ...change };
  }
}
