import { failedPrecondition, permissionDenied, validationFailed } from '@inventory/platform';
import { verifyPassword } from '../domain/password.js';
import { messages } from '../domain/validation.js';
import type { UserEvents } from '../events/user-events.js';
import type { UserRepository } from '../store/user-repository.js';
import { loadUser } from './load-user.js';
import { twoFactorRefusal, type SecondFactor } from './second-factor.js';

/** Turning 2FA off needs the password and a current code. */
export class DisableTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly secondFactor: SecondFactor,
    private readonly events: UserEvents,
  ) {}

  async execute(tenantId: string, userId: number, password: string, code: string): Promise<void> {
    const user = await loadUser(this.users, tenantId, userId);
    if (!user.two_factor_enabled)
      throw failedPrecondition(
        'two_factor_not_enabled',
        'Two factor authentication is not enabled.',
      );
    const missing = [];
    if (!password) missing.push({ field: 'password', description: messages.required('password') });
    if (!code) missing.push({ field: 'code', description: messages.required('code') });
    if (missing.length > 0) throw validationFailed(missing);
    if (!(await verifyPassword(password, user.password_hash)))
      throw permissionDenied('The provided password is incorrect.', 'invalid_password');
    const outcome = await this.secondFactor.verify(user, code);
    if (outcome !== 'ok')
      throw permissionDenied(twoFactorRefusal(outcome), 'invalid_two_factor_code');
    // `two_factor_enabled` shows in every gateway's cached `GET /api/user`.
    await this.events.changed({ tenantId, userId }, () =>
      this.users.update(tenantId, userId, {
        two_factor_enabled: false,
        two_factor_secret: null,
        two_factor_pending_secret: null,
        two_factor_recovery_hashes: [],
      }),
    );
  }
}
