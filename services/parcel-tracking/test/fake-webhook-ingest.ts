import {
  WebhookIngestServiceService,
  type WebhookIngestServiceServer,
} from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import {
  createLogger,
  startGrpcServer,
  type AsyncService,
  type GrpcServerHandle,
} from '@inventory/platform';

/** A webhook token as webhook-ingest's registry holds it. */
export interface RegisteredToken {
  token: string;
  tenant_id: string;
  integration_instance_id: number;
  provider: string;
}

/** A received webhook, as far as the summary needs it. */
export interface ReceivedWebhook {
  tenant_id: string;
  integration_instance_id: number;
  [field: string]: unknown;
}

/**
 * A real gRPC server speaking webhook-ingest's contract (the three calls parcel-tracking makes:
 * RegisterToken, UnregisterToken, GetWebhookSummary), with its state in memory: webhook-ingest
 * is not the subject of parcel-tracking's tests, which therefore neither boot it nor read its
 * stores (ADR 0013). The tenant comes from the call's metadata, as in the real service.
 * `stores` keeps the names the tests read: the token registry and the received webhooks.
 */
export class FakeWebhookIngest {
  private readonly tokens = new Map<string, RegisteredToken>();
  private readonly received: Array<ReceivedWebhook & { received_at: Date }> = [];
  grpc?: GrpcServerHandle;

  readonly stores = {
    tokens: {
      resolve: async (token: string): Promise<RegisteredToken | null> =>
        this.tokens.get(token) ?? null,
    },
    inbox: {
      /** A webhook received now for the row's tenant and instance. */
      store: async (webhook: ReceivedWebhook): Promise<void> => {
        this.received.push({ ...webhook, received_at: new Date() });
      },
    },
  };

  async start(): Promise<this> {
    const implementation = {
      registerToken: async (request, context) => {
        this.tokens.set(request.token, {
          token: request.token,
          tenant_id: context.tenant(),
          integration_instance_id: request.integration_instance_id,
          provider: request.provider,
        });
        return {};
      },
      unregisterToken: async (request) => ({ removed: this.tokens.delete(request.token) }),
      getWebhookSummary: async (request, context) => {
        const rows = this.received.filter(
          (row) =>
            row.tenant_id === context.tenant() &&
            row.integration_instance_id === request.integration_instance_id,
        );
        const last = rows.reduce<Date | undefined>(
          (latest, row) => (!latest || row.received_at > latest ? row.received_at : latest),
          undefined,
        );
        return { last_webhook_at: last };
      },
    } as Partial<
      AsyncService<WebhookIngestServiceServer>
    > as AsyncService<WebhookIngestServiceServer>;
    this.grpc = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      logger: createLogger({ service: 'fake-webhook-ingest', level: 'silent' }),
      services: [
        {
          name: 'inventory.webhook_ingest.v1.WebhookIngestService',
          definition: WebhookIngestServiceService,
          implementation,
        },
      ],
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.grpc?.stop(1_000);
  }
}
