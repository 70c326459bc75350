import { notFound } from '@inventory/platform';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

/**
 * A user's profile, read from the store every time. The gateways cache it (ADR 0109) and
 * drop it on `identity.user.changed`; a cache here as well, which another identity replica's
 * change could not reach, would hand a gateway the old profile right after the event.
 */
export class GetUser {
  constructor(private readonly users: UserRepository) {}

  async execute(tenantId: string, userId: number): Promise<UserDocument> {
    const user = await this.users.findById(tenantId, userId);
    if (!user) throw notFound('User not found.');
    return user;
  }
}
