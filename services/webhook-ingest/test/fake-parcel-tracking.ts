import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ParcelTrackingServiceService,
  TrackingUpdateOutcome,
  type ApplyTrackingUpdateRequest,
  type ApplyTrackingUpdateResponse,
  type ParcelTrackingServiceServer,
  type VerifyWebhookSignatureRequest,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  AppError,
  createLogger,
  startGrpcServer,
  type AsyncService,
  type GrpcServerHandle,
} from '@inventory/platform';

export { TrackingUpdateOutcome };

export interface ApplyCall {
  tenantId: string;
  request: ApplyTrackingUpdateRequest;
}

/** What the fake answers one ApplyTrackingUpdate with: an answer, an error, or never (a hang). */
export type Scripted = ApplyTrackingUpdateResponse | AppError | 'hang';

/**
 * A real gRPC server speaking parcel-tracking's contract with scripted answers:
 * parcel-tracking is not the subject of webhook-ingest's tests. Signatures are
 * checked for real (hex SHA-256 of `<raw body>/<api key>`) against the keys
 * given per `<tenant>:<instance>`; `applyAnswers` scripts ApplyTrackingUpdate
 * by tracking number (a queue; the last entry repeats), APPLIED otherwise.
 */
export class FakeParcelTracking {
  readonly apiKeys = new Map<string, string>();
  readonly applyCalls: ApplyCall[] = [];
  /** The webhook event ids of each ApplyTrackingUpdates call, and the size of each signature batch. */
  readonly applyBatches: number[][] = [];
  readonly verifyBatches: number[] = [];
  readonly applyAnswers = new Map<string, Scripted[]>();
  private server?: GrpcServerHandle;
  private readonly hung: Array<() => void> = [];

  get address(): string {
    return this.server!.address;
  }

  async start(port = 0): Promise<this> {
    const verify = async (tenantId: string, request: VerifyWebhookSignatureRequest) => {
      const key = this.apiKeys.get(`${tenantId}:${request.integration_instance_id}`);
      if (!key) throw new AppError(5 /* NOT_FOUND */, 'not_found', 'Instance not found.');
      const expected = createHash('sha256').update(request.raw_body).update(`/${key}`).digest();
      const given = /^[0-9a-f]{64}$/i.test(request.signature)
        ? Buffer.from(request.signature, 'hex')
        : null;
      return { valid: given !== null && timingSafeEqual(expected, given) };
    };
    const apply = async (
      tenantId: string,
      request: ApplyTrackingUpdateRequest,
    ): Promise<ApplyTrackingUpdateResponse> => {
      this.applyCalls.push({ tenantId, request });
      const queue = this.applyAnswers.get(request.update?.tracking_number ?? '') ?? [];
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      if (next === 'hang')
        return new Promise<never>((_, reject) =>
          this.hung.push(() => reject(new Error('released'))),
        );
      if (next instanceof AppError) throw next;
      return (
        next ?? {
          outcome: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED,
          status_from: 'in_transit',
          status_to: 'delivered',
          tracking_id: 1,
        }
      );
    };
    // The batch calls answer each item as the single call would: an AppError is its refusal;
    // a hung item hangs the whole call, as a hung parcel-tracking would.
    const each = async <T>(work: Promise<T>) => {
      try {
        return { answer: await work };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return { error: { code: error.code, reason: error.reason, message: error.message } };
      }
    };
    const implementation = {
      verifyWebhookSignature: (request, context) => verify(context.tenant(), request),
      applyTrackingUpdate: (request, context) => apply(context.tenant(), request),
      verifyWebhookSignatures: async (request, context) => {
        this.verifyBatches.push(request.checks.length);
        return {
          results: await Promise.all(
            request.checks.map(async (check) => {
              const item = await each(verify(context.tenant(), check));
              return 'error' in item ? { valid: false, error: item.error } : item.answer!;
            }),
          ),
        };
      },
      applyTrackingUpdates: async (request, context) => {
        this.applyBatches.push(request.updates.map((update) => update.webhook_event_id));
        return {
          results: await Promise.all(
            request.updates.map((update) => each(apply(context.tenant(), update))),
          ),
        };
      },
    } as Partial<
      AsyncService<ParcelTrackingServiceServer>
    > as AsyncService<ParcelTrackingServiceServer>;
    this.server = await startGrpcServer({
      host: '127.0.0.1',
      port,
      logger: createLogger({ service: 'fake-parcel-tracking', level: 'silent' }),
      services: [
        {
          name: 'inventory.parcel_tracking.v1.ParcelTrackingService',
          definition: ParcelTrackingServiceService,
          implementation,
        },
      ],
    });
    return this;
  }

  callsFor(webhookEventId: number): ApplyCall[] {
    return this.applyCalls.filter((call) => call.request.webhook_event_id === webhookEventId);
  }

  /** Fails every hung call now, as a parcel-tracking restart would. */
  releaseHung(): void {
    for (const release of this.hung.splice(0)) release();
  }

  async stop(): Promise<void> {
    this.releaseHung();
    await this.server?.stop(1_000);
  }
}

export const answer = (
  outcome: TrackingUpdateOutcome,
  status_from = 'in_transit',
  status_to = status_from,
): ApplyTrackingUpdateResponse => ({ outcome, status_from, status_to, tracking_id: 1 });
