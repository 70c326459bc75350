import { notFound } from '@inventory/platform';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

/** The acting user, or NOT_FOUND: the first step of the 2FA use cases. */
export async function loadUser(
  users: UserRepository,
  tenantId: string,
  userId: number,
): Promise<UserDocument> {
  const user = await users.findById(tenantId, userId);
  if (!user) throw notFound('User not found.');
  return user;
}
