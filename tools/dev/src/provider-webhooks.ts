import { ActivityRecorded } from '@inventory/contracts/events/v1/activity.js';
import { ParcelTrackingServiceClient } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import {
  createGrpcClient,
  decodeEnvelope,
  newRequestId,
  runWithContext,
} from '@inventory/platform';
import { connect } from 'nats';

export interface ProviderWebhookWiring {
  natsUrl: string;
  parcelTrackingAddress: string;
  /** The development tenant: its instance's webhook_url is `<baseUrl><webhook_path>`. */
  tenantId: string;
  baseUrl: string;
  providerUrl: string;
  providerApiKey: string;
  log: (line: string) => void;
}

/**
 * The real provider sends webhooks to the URL its account is configured with.
 * In `npm start` that configuration is done for the person: whenever the
 * development tenant connects its instance (or updates it), the simulator's
 * development key is pointed at the instance's webhook_url, so emitted
 * shipments move to delivered by webhooks. Returns a stop function.
 */
export async function pointSimulatorAtWebhookUrl(
  wiring: ProviderWebhookWiring,
): Promise<() => Promise<void>> {
  const nats = await connect({ servers: wiring.natsUrl, name: 'dev-launcher' });
  const parcelTracking = createGrpcClient(
    ParcelTrackingServiceClient,
    wiring.parcelTrackingAddress,
    {
      deadlineMs: 20_000,
    },
  );
  const subscription = nats.subscribe('activity.recorded');
  const point = async (instanceId: number) => {
    const { instance } = await runWithContext(
      { requestId: newRequestId(), tenantId: wiring.tenantId },
      () => parcelTracking.call.getInstance({ id: instanceId }),
    );
    const webhookUrl = `${wiring.baseUrl}${instance!.webhook_path}`;
    const answer = await fetch(`${wiring.providerUrl}/__sim/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: wiring.providerApiKey, webhook_url: webhookUrl }),
    });
    if (!answer.ok) throw new Error(`provider-sim answered ${answer.status}`);
    wiring.log(
      `provider-sim key ${wiring.providerApiKey} now pushes webhooks to ${webhookUrl.replace(/wh_[\w-]+/, 'wh_…')}`,
    );
  };
  void (async () => {
    for await (const message of subscription) {
      try {
        const envelope = decodeEnvelope(message.data);
        if (envelope.tenant_id !== wiring.tenantId) continue;
        const activity = ActivityRecorded.decode(envelope.payload);
        if (
          (activity.event === 'connected' || activity.event === 'updated') &&
          activity.subject_type === INTEGRATION_INSTANCE_SUBJECT
        )
          await point(activity.subject_id);
      } catch (error) {
        wiring.log(`could not point provider-sim at the webhook URL: ${(error as Error).message}`);
      }
    }
  })();
  return async () => {
    parcelTracking.close();
    await nats.drain();
  };
}
