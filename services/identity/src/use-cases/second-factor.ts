import { sha256Hex } from '../domain/secrets.js';
import { verifyTotp } from '../domain/totp.js';
import type { UserDocument } from '../store/users.js';
import type { UseCaseDeps } from './deps.js';

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
  const step = verifyTotp(user.two_factor_secret, trimmed.replace(/\s+/g, ''));
  if (step !== undefined) {
    if (step <= user.two_factor_last_step) return false;
    // Conditional on the last step, so two concurrent uses of one code cannot both pass.
    return deps.store.users.update(
      user.tenant_id,
      user.id,
      { two_factor_last_step: step },
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
