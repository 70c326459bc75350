import { sha256Hex } from '../domain/secrets.js';
import { verifyTotp } from '../domain/totp.js';
import type { UserDocument } from '../store/users.js';
import type { UseCaseDeps } from './deps.js';
import { openTotpSecret, sealTotpSecret } from './totp-secrets.js';

/**
 * An unreadable secret (wrong IDENTITY_SECRET_ENCRYPTION_KEY, tampered value)
 * matches no code: 2FA fails closed, loudly, and recovery codes still work.
 */
function openSecret(deps: UseCaseDeps, user: UserDocument) {
  try {
    return openTotpSecret(deps, user.two_factor_secret!);
  } catch (error) {
    deps.logger.error(
      { err: error, tenant_id: user.tenant_id, user_id: user.id },
      'cannot decrypt the TOTP secret; is IDENTITY_SECRET_ENCRYPTION_KEY the key it was sealed with?',
    );
    return undefined;
  }
}

/**
 * Checks a TOTP code (current step ±1, never a step already used) or a
 * recovery code (each works once). Records what was used, so neither replays.
 */
export async function checkSecondFactor(
  deps: UseCaseDeps,
  user: UserDocument,
  code: string,
): Promise<boolean> {
  if (!user.two_factor_enabled || !user.two_factor_secret) return false;
  const trimmed = code.trim();
  const opened = openSecret(deps, user);
  const step = opened ? verifyTotp(opened.secret, trimmed.replace(/\s+/g, '')) : undefined;
  if (opened && step !== undefined) {
    if (step <= user.two_factor_last_step) return false;
    // Conditional on the last step, so two concurrent uses of one code cannot both pass.
    // A secret still in plaintext (written before ADR 0106) is sealed by this same write.
    return deps.store.users.update(
      user.tenant_id,
      user.id,
      {
        two_factor_last_step: step,
        ...(opened.legacy ? { two_factor_secret: sealTotpSecret(deps, opened.secret) } : {}),
      },
      { two_factor_last_step: user.two_factor_last_step },
    );
  }
  const hash = sha256Hex(trimmed.toLowerCase());
  if (!user.two_factor_recovery_hashes.includes(hash)) return false;
  const result = await deps.store.users.model.updateOne(
    { tenant_id: user.tenant_id, id: user.id, two_factor_recovery_hashes: hash },
    { $pull: { two_factor_recovery_hashes: hash } },
  );
  return result.modifiedCount > 0;
}
