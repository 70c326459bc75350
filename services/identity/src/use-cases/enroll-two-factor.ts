import { failedPrecondition, type SecretBox } from '@inventory/platform';
import { sealTotpSecret } from '../domain/totp-secrets.js';
import { newTotpSecret, otpauthUrl } from '../domain/totp.js';
import type { UserRepository } from '../store/user-repository.js';
import { loadUser } from './load-user.js';

/** Step 1: a new secret, pending until a code from it is confirmed. */
export class EnrollTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly secrets: SecretBox,
    private readonly totpIssuer: string,
  ) {}

  async execute(tenantId: string, userId: number): Promise<{ secret: string; otpauthUrl: string }> {
    const user = await loadUser(this.users, tenantId, userId);
    if (user.two_factor_enabled)
      throw failedPrecondition(
        'two_factor_already_enabled',
        'Two factor authentication is already enabled.',
      );
    const secret = newTotpSecret();
    await this.users.update(tenantId, userId, {
      two_factor_pending_secret: sealTotpSecret(this.secrets, secret),
    });
    // The only time the plaintext leaves identity: the user types it into an authenticator app.
    return { secret, otpauthUrl: otpauthUrl(secret, user.email, this.totpIssuer) };
  }
}
