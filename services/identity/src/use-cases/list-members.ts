import { validationFailed } from '@inventory/platform';
import { readPage } from '@inventory/rules';
import type { UserRepository } from '../store/user-repository.js';

/** One page of the tenant's members: who they are (id, name, email), by id; at most 100 a page. */
export class ListMembers {
  constructor(private readonly users: UserRepository) {}

  execute(tenantId: string, input: { page: number; per_page: number }) {
    const { page, perPage, violations } = readPage(input, { defaultPerPage: 20, maxPerPage: 100 });
    if (violations.length > 0) throw validationFailed(violations);
    return this.users.members(tenantId, page, perPage);
  }
}
