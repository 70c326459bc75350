import { notFound, type SecretBox } from '@inventory/platform';
import { mintSigningSecret } from '../domain/signing-secret.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { StoredSecret } from '../store/subscription.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';

/**
 * A new secret, returned once. The previous current secret keeps signing until the overlap
 * ends, so receivers can switch without losing a delivery; older ones stop at once.
 */
export class RotateSecret {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly secretBox: SecretBox,
    private readonly overlapMs: number,
  ) {}

  async execute(
    tenantId: string,
    id: number,
  ): Promise<{ secret: string; previousExpiresAt: Date }> {
    const existing = await this.subscriptions.find(tenantId, id);
    if (!existing) throw notFound(SUBSCRIPTION_NOT_FOUND);
    const now = new Date();
    const previousExpiresAt = new Date(now.getTime() + this.overlapMs);
    const secret = mintSigningSecret();
    const current = existing.secrets[0];
    const secrets: StoredSecret[] = [
      { encrypted: this.secretBox.encrypt(secret), created_at: now, expires_at: null },
      ...(current ? [{ ...current, expires_at: previousExpiresAt }] : []),
    ];
    if (!(await this.subscriptions.update(tenantId, id, { secrets })))
      throw notFound(SUBSCRIPTION_NOT_FOUND);
    return { secret, previousExpiresAt };
  }
}
