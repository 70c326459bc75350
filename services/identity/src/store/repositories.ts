import type { Connection } from 'mongoose';
import { SessionRepository } from './session-repository.js';
import { TenantRepository } from './tenant-repository.js';
import { TokenPolicyRepository } from './token-policy-repository.js';
import { TokenRequestRepository } from './token-request-repository.js';
import { TokenRepository } from './token-repository.js';
import { UserRepository } from './user-repository.js';

/** Identity's repositories; each owns its model, and only they touch the database. */
export interface IdentityStore {
  tenants: TenantRepository;
  users: UserRepository;
  sessions: SessionRepository;
  tokens: TokenRepository;
  requests: TokenRequestRepository;
  policies: TokenPolicyRepository;
}

/**
 * One repository per collection on one connection: the service's bootstrap and the offline entry
 * (admin CLI, development seed) build the same set, which `wireUseCases` hands out.
 */
export function createStore(
  connection: Connection,
  options: { requestLogRetentionDays: number },
): IdentityStore {
  return {
    tenants: new TenantRepository(connection),
    users: new UserRepository(connection),
    sessions: new SessionRepository(connection),
    tokens: new TokenRepository(connection),
    requests: new TokenRequestRepository(connection, options.requestLogRetentionDays),
    policies: new TokenPolicyRepository(connection),
  };
}
