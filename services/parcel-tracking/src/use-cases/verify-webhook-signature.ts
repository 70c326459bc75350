import { notFound } from '@inventory/platform';
import { isValidWebhookSignature } from '../domain/webhook-signature.js';
import type { WebhookKeys } from './webhook-keys.js';

/** Checks an inbound push's `sign` header with the instance's key; the key never leaves here. */
export class VerifyWebhookSignature {
  constructor(private readonly keys: WebhookKeys) {}

  async execute(
    tenantId: string,
    instanceId: number,
    rawBody: Uint8Array,
    signature: string,
  ): Promise<boolean> {
    const cached = this.keys.isCached(tenantId, instanceId);
    const key = await this.keys.get(tenantId, instanceId);
    if (key === null) throw notFound('Parcel-tracking instance not found.');
    if (isValidWebhookSignature(rawBody, key, signature)) return true;
    // The cached key may predate a change made through another replica (ADR 0225): a push is
    // refused only by the key the instance holds now.
    if (!cached) return false;
    const fresh = await this.keys.reload(tenantId, instanceId);
    if (fresh === null) throw notFound('Parcel-tracking instance not found.');
    return fresh !== key && isValidWebhookSignature(rawBody, fresh, signature);
  }
}
