import type { User } from '@inventory/contracts/identity/v1/identity.js';
import { notFound } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';
import { presentUser } from './present.js';

export class GetUser {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, userId: number): Promise<User> {
    const user = await this.deps.store.users.findById(tenantId, userId);
    if (!user) throw notFound('User not found.');
    return presentUser(user);
  }
}
