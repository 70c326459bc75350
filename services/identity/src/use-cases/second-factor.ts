import type { Logger, SecretBox } from '@inventory/platform';
import { sha256Hex } from '../domain/secrets.js';
import { openTotpSecret, sealTotpSecret } from '../domain/totp-secrets.js';
import { verifyTotp } from '../domain/totp.js';
import type { UserDocument } from '../store/user.js';
import type { UserRepository } from '../store/user-repository.js';

export const BAD_TWO_FACTOR = 'The provided two factor authentication code was invalid.';
export const USED_TWO_FACTOR =
  'This two-factor code has already been used. Wait for the next code from your app.';

/** What a refused code is told: wrong, or right but already used (wait for the next one). */
export const twoFactorRefusal = (outcome: 'invalid' | 'used'): string =>
  outcome === 'used' ? USED_TWO_FACTOR : BAD_TWO_FACTOR;

/**
 * The second-factor check several use cases share (login, token edits, turning
 * 2FA off). Not a use case itself: no `execute()`, never called from gRPC.
 */
export class SecondFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly secrets: SecretBox,
    private readonly logger: Logger,
  ) {}

  /**
   * A TOTP code (current step ±1, never a step already used) or a recovery code (each works
   * once); records what was used, so neither replays. Says why a code failed: `used` for a right
   * code of a step already used (or older), so the person is told to wait for the next one
   * rather than that it is wrong. Asked only after the password matched.
   */
  async verify(user: UserDocument, code: string): Promise<'ok' | 'invalid' | 'used'> {
    if (!user.two_factor_enabled || !user.two_factor_secret) return 'invalid';
    const trimmed = code.trim();
    const opened = this.openSecret(user);
    const step = opened ? verifyTotp(opened.secret, trimmed.replace(/\s+/g, '')) : undefined;
    if (opened && step !== undefined) {
      if (step <= user.two_factor_last_step) return 'used';
      // Conditional on the last step, so two concurrent uses of one code cannot both pass.
      // A secret still in plaintext (written before ADR 0106) is sealed by this same write.
      // Lost to a concurrent use of the same code: that one was first.
      const recorded = await this.users.recordTotpStep(
        user.tenant_id,
        user.id,
        step,
        user.two_factor_last_step,
        opened.legacy ? { two_factor_secret: sealTotpSecret(this.secrets, opened.secret) } : {},
      );
      return recorded ? 'ok' : 'used';
    }
    const hash = sha256Hex(trimmed.toLowerCase());
    if (!user.two_factor_recovery_hashes.includes(hash)) return 'invalid';
    return (await this.users.useRecoveryCode(user.tenant_id, user.id, hash)) ? 'ok' : 'used';
  }

  /**
   * An unreadable secret (wrong IDENTITY_SECRET_ENCRYPTION_KEY, tampered value)
   * matches no code: 2FA fails closed, loudly, and recovery codes still work.
   */
  private openSecret(user: UserDocument) {
    try {
      return openTotpSecret(this.secrets, user.two_factor_secret!);
    } catch (error) {
      this.logger.error(
        { err: error, tenant_id: user.tenant_id, user_id: user.id },
        'cannot decrypt the TOTP secret; is IDENTITY_SECRET_ENCRYPTION_KEY the key it was sealed with?',
      );
      return undefined;
    }
  }
}
