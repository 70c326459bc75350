import { addedElevatedScopes } from '@inventory/access';
import { notFound, permissionDenied, validationFailed } from '@inventory/platform';
import { verifyPassword } from '../domain/password.js';
import { messages } from '../domain/validation.js';
import type { UserRepository } from '../store/user-repository.js';
import { twoFactorRefusal, type SecondFactor } from './second-factor.js';

/**
 * Adding a :write or :manage scope to an existing token re-authenticates the user in the same
 * request (the specification's rule 6): the password, and the 2FA code when it is on. Editing and
 * regenerating a token both ask here.
 */
export async function confirmElevation(
  users: UserRepository,
  secondFactor: SecondFactor,
  tenantId: string,
  userId: number,
  change: {
    before: readonly string[];
    after: readonly string[] | undefined;
    password?: string;
    twoFactorCode?: string;
  },
): Promise<void> {
  if (!change.after || addedElevatedScopes([...change.before], [...change.after]).length === 0)
    return;
  const user = await users.findById(tenantId, userId);
  if (!user) throw notFound('User not found.');
  const missing = [];
  if (!change.password)
    missing.push({ field: 'password', description: messages.required('password') });
  if (user.two_factor_enabled && !change.twoFactorCode)
    missing.push({ field: 'two_factor_code', description: messages.required('two_factor_code') });
  if (missing.length > 0) throw validationFailed(missing);
  if (!(await verifyPassword(change.password!, user.password_hash)))
    throw permissionDenied('The provided password is incorrect.', 'invalid_password');
  if (user.two_factor_enabled) {
    const outcome = await secondFactor.verify(user, change.twoFactorCode!);
    if (outcome !== 'ok')
      throw permissionDenied(twoFactorRefusal(outcome), 'invalid_two_factor_code');
  }
}
