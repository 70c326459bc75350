import { notFound, type SecretBox } from '@inventory/platform';
import { isValidWebhookSignature } from '../domain/webhook-signature.js';
import type { InstanceStore } from '../store/instance-store.js';

/** Checks an inbound push's `sign` header with the instance's key; the key never leaves here. */
export class VerifyWebhookSignature {
  constructor(
    private readonly instances: InstanceStore,
    private readonly secrets: SecretBox,
  ) {}

  async execute(
    tenantId: string,
    instanceId: number,
    rawBody: Uint8Array,
    signature: string,
  ): Promise<boolean> {
    const instance = await this.instances.find(tenantId, instanceId);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    return isValidWebhookSignature(
      rawBody,
      this.secrets.decrypt(instance.api_key_encrypted),
      signature,
    );
  }
}
