import {
  failedPrecondition,
  type AppError,
  type Logger,
  type Outbox,
  type SecretBox,
} from '@inventory/platform';
import type { WebhookRegistry } from '../clients/webhook-registry.js';
import { ProviderError } from '../provider/errors.js';
import type { ProviderClient } from '../provider/client.js';
import type { QuotaReader } from '../provider/quota-reader.js';
import type { InstanceStore } from '../store/instance-store.js';
import type { SalesChannelStore } from '../store/sales-channel-store.js';
import type { StopJobStore } from '../store/stop-job-store.js';
import type { AppliedUpdateStore } from '../store/applied-update-store.js';
import type { ShipmentStore } from '../store/shipment-store.js';
import type { TrackingQueue } from '../store/tracking-queue.js';
import type { TrackingRows } from '../store/tracking-rows.js';
import type { TrackingStore } from '../store/tracking-store.js';

/** Everything the use cases share; built once in bootstrap. */
export interface Deps {
  instances: InstanceStore;
  trackings: TrackingStore;
  rows: TrackingRows;
  queue: TrackingQueue;
  shipments: ShipmentStore;
  appliedUpdates: AppliedUpdateStore;
  channels: SalesChannelStore;
  stopJobs: StopJobStore;
  provider: ProviderClient;
  /** The dashboard's live quota, cached briefly per key and shared by concurrent readers. */
  quotas: QuotaReader;
  secrets: SecretBox;
  registry: WebhookRegistry;
  outbox: Outbox;
  logger: Logger;
}

/** A provider failure as the client sees it: 422 with code invalid_key or api_error. */
export function providerFailure(error: unknown): AppError | unknown {
  return error instanceof ProviderError ? failedPrecondition(error.code, error.message) : error;
}
