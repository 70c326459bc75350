import { failedPrecondition, validationFailed, type SecretBox } from '@inventory/platform';
import { newRecoveryCode, sha256Hex } from '../domain/secrets.js';
import { openTotpSecret, sealTotpSecret } from '../domain/totp-secrets.js';
import { verifyTotp } from '../domain/totp.js';
import { messages } from '../domain/validation.js';
import type { UserEvents } from '../events/user-events.js';
import type { UserRepository } from '../store/user-repository.js';
import { loadUser } from './load-user.js';

const RECOVERY_CODES = 8;

/** Step 2: a valid code turns 2FA on and hands out recovery codes once. */
export class ConfirmTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly secrets: SecretBox,
    private readonly events: UserEvents,
  ) {}

  async execute(tenantId: string, userId: number, code: string): Promise<string[]> {
    const user = await loadUser(this.users, tenantId, userId);
    if (user.two_factor_enabled)
      throw failedPrecondition(
        'two_factor_already_enabled',
        'Two factor authentication is already enabled.',
      );
    if (!user.two_factor_pending_secret)
      throw failedPrecondition('two_factor_not_enrolled', 'Start two factor enrollment first.');
    if (!code) throw validationFailed([{ field: 'code', description: messages.required('code') }]);
    const { secret } = openTotpSecret(this.secrets, user.two_factor_pending_secret);
    const step = verifyTotp(secret, code.trim());
    if (step === undefined)
      throw validationFailed([
        { field: 'code', description: 'The provided two factor authentication code was invalid.' },
      ]);
    const recovery = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    // `two_factor_enabled` shows in every gateway's cached `GET /api/user`.
    await this.events.changed({ tenantId, userId }, () =>
      this.users.update(tenantId, userId, {
        two_factor_enabled: true,
        two_factor_secret: sealTotpSecret(this.secrets, secret),
        two_factor_pending_secret: null,
        two_factor_recovery_hashes: recovery.map((value) => sha256Hex(value)),
        two_factor_last_step: step,
      }),
    );
    return recovery;
  }
}
