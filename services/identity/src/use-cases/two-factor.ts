import type {
  ConfirmTwoFactorResponse,
  EnrollTwoFactorResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import {
  failedPrecondition,
  notFound,
  permissionDenied,
  validationFailed,
} from '@inventory/platform';
import { verifyPassword } from '../domain/password.js';
import { newRecoveryCode, sha256Hex } from '../domain/secrets.js';
import { newTotpSecret, otpauthUrl, verifyTotp } from '../domain/totp.js';
import { messages } from '../domain/validation.js';
import type { UseCaseDeps } from './deps.js';
import { checkSecondFactor } from './second-factor.js';
import { openTotpSecret, sealTotpSecret } from './totp-secrets.js';

const RECOVERY_CODES = 8;

async function loadUser(deps: UseCaseDeps, tenantId: string, userId: number) {
  const user = await deps.store.users.findById(tenantId, userId);
  if (!user) throw notFound('User not found.');
  return user;
}

/** Step 1: a new secret, pending until a code from it is confirmed. */
export class EnrollTwoFactor {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, userId: number): Promise<EnrollTwoFactorResponse> {
    const user = await loadUser(this.deps, tenantId, userId);
    if (user.two_factor_enabled)
      throw failedPrecondition(
        'two_factor_already_enabled',
        'Two factor authentication is already enabled.',
      );
    const secret = newTotpSecret();
    await this.deps.store.users.update(tenantId, userId, {
      two_factor_pending_secret: sealTotpSecret(this.deps, secret),
    });
    // The only time the plaintext leaves identity: the user types it into an authenticator app.
    return { secret, otpauth_url: otpauthUrl(secret, user.email, this.deps.settings.totpIssuer) };
  }
}

/** Step 2: a valid code turns 2FA on and hands out recovery codes once. */
export class ConfirmTwoFactor {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, userId: number, code: string): Promise<ConfirmTwoFactorResponse> {
    const user = await loadUser(this.deps, tenantId, userId);
    if (user.two_factor_enabled)
      throw failedPrecondition(
        'two_factor_already_enabled',
        'Two factor authentication is already enabled.',
      );
    if (!user.two_factor_pending_secret)
      throw failedPrecondition('two_factor_not_enrolled', 'Start two factor enrollment first.');
    if (!code) throw validationFailed([{ field: 'code', description: messages.required('code') }]);
    const { secret } = openTotpSecret(this.deps, user.two_factor_pending_secret);
    const step = verifyTotp(secret, code.trim());
    if (step === undefined)
      throw validationFailed([
        { field: 'code', description: 'The provided two factor authentication code was invalid.' },
      ]);
    const recovery = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.deps.store.users.update(tenantId, userId, {
      two_factor_enabled: true,
      two_factor_secret: sealTotpSecret(this.deps, secret),
      two_factor_pending_secret: null,
      two_factor_recovery_hashes: recovery.map((value) => sha256Hex(value)),
      two_factor_last_step: step,
    });
    return { recovery_codes: recovery };
  }
}

/** Turning 2FA off needs the password and a current code. */
export class DisableTwoFactor {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(tenantId: string, userId: number, password: string, code: string): Promise<void> {
    const user = await loadUser(this.deps, tenantId, userId);
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
    if (!(await checkSecondFactor(this.deps, user, code)))
      throw permissionDenied(
        'The provided two factor authentication code was invalid.',
        'invalid_two_factor_code',
      );
    await this.deps.store.users.update(tenantId, userId, {
      two_factor_enabled: false,
      two_factor_secret: null,
      two_factor_pending_secret: null,
      two_factor_recovery_hashes: [],
    });
  }
}
