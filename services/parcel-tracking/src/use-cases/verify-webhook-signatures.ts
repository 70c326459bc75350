import { perItem, type BatchItem } from './batch-results.js';
import type { VerifyWebhookSignature } from './verify-webhook-signature.js';

export interface SignatureCheck {
  instanceId: number;
  rawBody: Uint8Array;
  signature: string;
}

/**
 * The signature checks of pushes that reached webhook-ingest together, in one call (proto
 * VerifyWebhookSignatures, ADR 0226): each answered as VerifyWebhookSignature answers it, with
 * its own refusal (an unknown instance) rather than failing the others.
 */
export class VerifyWebhookSignatures {
  constructor(private readonly single: VerifyWebhookSignature) {}

  execute(tenantId: string, checks: SignatureCheck[]): Promise<Array<BatchItem<boolean>>> {
    return perItem(checks, (check) =>
      this.single.execute(tenantId, check.instanceId, check.rawBody, check.signature),
    );
  }
}
