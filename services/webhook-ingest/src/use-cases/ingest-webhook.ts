import { notFound } from '@inventory/platform';
import { summarizePayload } from '../domain/payload.js';
import type { InboxStore } from '../store/inbox-store.js';
import type { ResolveToken } from './resolve-token.js';

export interface IngestInput {
  token: string;
  provider: string;
  rawBody: Uint8Array;
  contentType: string;
  signature?: string;
}

/**
 * Resolves the token and stores the raw webhook durably, so the caller can
 * answer 2xx at once (the provider retries non-2xx). Processing is a later job.
 */
export class IngestWebhook {
  constructor(
    private readonly resolveToken: ResolveToken,
    private readonly inbox: InboxStore,
  ) {}

  async execute(input: IngestInput): Promise<number> {
    const owner = await this.resolveToken.execute(input.token);
    if (owner.provider !== input.provider) throw notFound('The webhook address is not known.');
    const rawBody = Buffer.from(input.rawBody).toString('utf8');
    const summary = summarizePayload(rawBody);
    return this.inbox.store({
      tenant_id: owner.tenant_id,
      integration_instance_id: owner.integration_instance_id,
      provider: owner.provider,
      event_type: summary.event_type,
      tracking_number: summary.tracking_number,
      payload: summary.payload,
      raw_body: rawBody,
      content_type: input.contentType,
      signature: input.signature ?? null,
    });
  }
}
