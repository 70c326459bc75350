import { status } from '@grpc/grpc-js';
import { describeCallError, notFound, unavailable, type Outbox } from '@inventory/platform';
import { readWebhookBody, type BodyViolation } from '../domain/payload.js';
import { webhookActivity } from '../domain/webhook-activity.js';
import type { ParcelTracking } from '../clients/parcel-tracking.js';
import type { WebhookEventRepository } from '../store/webhook-event-repository.js';
import type { NewWebhookEvent } from '../store/webhook-event.js';
import type { Backlog } from '../workers/backlog.js';
import type { WebhookProcessor } from '../workers/webhook-processor.js';
import type { ResolveToken } from './resolve-token.js';

export interface IngestInput {
  token: string;
  provider: string;
  rawBody: Uint8Array;
  contentType: string;
  signature?: string;
  /** The tenant whose address received it; a token of another tenant is unknown there. */
  tenantId?: string;
  /**
   * Aborted once the caller has had another answer (the store stalled, the deadline passed): a
   * row that lands after that was refused to the provider, which sends the push again.
   */
  callerAnswered?: AbortSignal;
}

export type IngestAnswer =
  | { id: number; rejection: '' }
  | { id: number; rejection: 'invalid_signature'; message: string }
  | { id: number; rejection: 'invalid_body'; message: string; violations: BodyViolation[] };

const MAX_STORED_BODY = 64 * 1024;

/**
 * Stores an inbound webhook durably before the caller answers 2xx (the provider
 * retries anything else). A bad `sign` or an unreadable body is stored as
 * `failed` with the reason and refused (401 / 422); a provider retry is stored
 * `ignored` as a duplicate; anything else waits for the processing job. An
 * unknown token stores nothing (ADR 0220), and neither does a push refused because
 * the backlog is at its bound (ADR 0729).
 */
export class IngestWebhook {
  constructor(
    private readonly deps: {
      resolveToken: ResolveToken;
      inbox: WebhookEventRepository;
      parcelTracking: Pick<ParcelTracking, 'verifySignature'>;
      outbox: Outbox;
      /** The local processing job (other replicas find stored rows by polling). */
      processor: Pick<WebhookProcessor, 'reserve' | 'runStored' | 'release' | 'wake'>;
      /** The bound on rows waiting for the job (ADR 0729). */
      backlog: Pick<Backlog, 'full'>;
    },
  ) {}

  async execute(input: IngestInput): Promise<IngestAnswer> {
    const { inbox } = this.deps;
    const receivedAt = new Date();
    const owner = await this.deps.resolveToken.execute(input.token);
    if (
      owner.provider !== input.provider ||
      (input.tenantId !== undefined && owner.tenant_id !== input.tenantId)
    )
      throw notFound('The webhook address is not known.');
    // Past the bound nothing is stored, not even a refused push's row: the provider retries.
    if (this.deps.backlog.full())
      throw unavailable(
        'webhook_backlog_full',
        'Too many webhooks are waiting to be processed; retry later.',
      );
    const body = readWebhookBody(input.rawBody);
    const signed = input.signature !== undefined;
    const signatureValid = signed ? await this.verify(owner, input) : true;
    const row: NewWebhookEvent = {
      tenant_id: owner.tenant_id,
      integration_instance_id: owner.integration_instance_id,
      provider: owner.provider,
      received_at: receivedAt,
      event_type: body.ok ? body.payload.event : body.event_type,
      tracking_number: body.ok ? body.payload.data.number : body.tracking_number,
      payload: body.ok ? body.payload : null,
      // An oversized body is not kept whole: the row says why it failed, not what it held.
      raw_body: Buffer.from(input.rawBody).subarray(0, MAX_STORED_BODY).toString('utf8'),
      content_type: input.contentType.slice(0, 255),
      signature: signed ? input.signature!.slice(0, 255) : null,
      signature_state: !signed ? 'absent' : signatureValid ? 'valid' : 'invalid',
    };

    if (!signatureValid) {
      const message = 'The webhook signature (sign header) does not match the body.';
      const id = await this.storeFailed(row, message);
      return { id, rejection: 'invalid_signature', message };
    }
    if (!body.ok) {
      const message = body.violations.map((violation) => violation.description).join(' ');
      const id = await this.storeFailed(row, message);
      return { id, rejection: 'invalid_body', message, violations: body.violations };
    }
    // Stored already leased to this replica's job when it has a free slot, and handed to it:
    // no claim round trip; if this replica dies, the lease expires and any replica claims it.
    const lease = this.deps.processor.reserve();
    let stored: Awaited<ReturnType<WebhookEventRepository['storeForProcessing']>>;
    try {
      stored = await inbox.storeForProcessing(row, body.update, body.identity, lease);
    } catch (error) {
      if (lease) this.deps.processor.release();
      throw error;
    }
    // A caller that gave up while this process was frozen (the gateway's watch answered 503,
    // ADR 0744) has its cancellation waiting in a socket, read in the same I/O phase as the
    // insert's reply: let that phase end before judging, so the push is not also processed.
    if (input.callerAnswered && !input.callerAnswered.aborted)
      await new Promise((resolve) => setImmediate(resolve));
    // Answered 503 before the write landed: the row must not be processed, nor take the
    // retry's place as the original (ADR 0743).
    if (input.callerAnswered?.aborted && stored.duplicateOf === null) {
      if (lease) this.deps.processor.release();
      const token = stored.leased?.lease_token;
      const heldLease = token && lease ? { owner: lease.owner, token } : undefined;
      await inbox.markUnacknowledged(
        {
          tenant_id: row.tenant_id,
          integration_instance_id: row.integration_instance_id,
          dedupe_key: stored.dedupeKey,
          id: stored.id,
        },
        heldLease,
      );
      return { id: stored.id, rejection: '' };
    }
    if (stored.leased) this.deps.processor.runStored(stored.leased);
    else {
      if (lease) this.deps.processor.release();
      if (stored.duplicateOf === null) this.deps.processor.wake();
    }
    return { id: stored.id, rejection: '' };
  }

  /**
   * parcel-tracking holds the key. When it cannot answer, nothing is stored and
   * the caller answers 503, so the provider retries (an unverified push is never
   * acknowledged); an instance it no longer knows is an unknown address.
   */
  private async verify(
    owner: { tenant_id: string; integration_instance_id: number },
    input: IngestInput,
  ): Promise<boolean> {
    try {
      return await this.deps.parcelTracking.verifySignature(
        owner.tenant_id,
        owner.integration_instance_id,
        input.rawBody,
        input.signature!,
      );
    } catch (error) {
      if (describeCallError(error).code === status.NOT_FOUND)
        throw notFound('The webhook address is not known.');
      throw unavailable(
        'service_unavailable',
        'The signature cannot be checked right now; retry later.',
      );
    }
  }

  private async storeFailed(row: NewWebhookEvent, message: string): Promise<number> {
    const { inbox, outbox } = this.deps;
    const id = await inbox.newId();
    const outcome = {
      result: 'failed' as const,
      status_from: null,
      status_to: null,
      error_message: message,
    };
    return outbox.withEvents(webhookActivity({ ...row, id, ...outcome }, 0, new Date()), () =>
      inbox.storeFinished(id, row, outcome),
    );
  }
}
