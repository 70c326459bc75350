import { randomUUID } from 'node:crypto';
import { MAX_ACTIVE_TOKENS } from '@inventory/access';
import { failedPrecondition, notFound, unavailable } from '@inventory/platform';
import type { UserRepository } from '../store/user-repository.js';

const LEASE_MS = 5_000;
const WAIT_LIMIT_MS = 4_000;

/** The refusal when a user already holds `MAX_ACTIVE_TOKENS` active tokens. */
export const tokenLimitReached = () =>
  failedPrecondition(
    'token_limit_reached',
    `You may hold at most ${MAX_ACTIVE_TOKENS} active personal access tokens. Revoke one first.`,
  );

/**
 * Runs `task` holding the user's token lease (ADR 0102): whatever takes one of the user's 50
 * active-token slots (a creation, an expired token brought back by regenerate) counts and
 * writes under it, so "count, then write" never interleaves across requests or replicas.
 */
export async function withTokenLease<T>(
  users: UserRepository,
  tenantId: string,
  userId: number,
  task: () => Promise<T>,
): Promise<T> {
  if (!(await users.findById(tenantId, userId))) throw notFound('User not found.');
  const owner = randomUUID();
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!(await users.acquireTokenLease(tenantId, userId, owner, LEASE_MS))) {
    if (Date.now() > deadline)
      throw unavailable(
        'token_create_contended',
        'Another token is being created for this user; try again.',
      );
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
  try {
    return await task();
  } finally {
    await users.releaseTokenLease(tenantId, userId, owner);
  }
}
