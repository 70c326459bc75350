import type { CreateInstanceRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  shipmentTrackingAssigned,
  shipmentTrackingChanged,
  shipmentTrackingRemoved,
  type ShipmentTrackingAssigned,
} from '@inventory/events';
import type { EventEnvelope } from '@inventory/contracts/events/v1/envelope.js';
import { decodeEnvelope } from '@inventory/platform';
import { AckPolicy, DeliverPolicy } from 'nats';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RegisterPending } from '../src/use-cases/register-pending.js';
import type { TrackingDocument } from '../src/store/tracking.js';
import { as, eventually, GOOD_KEY, startHarness, type Harness } from './harness.js';
import { registerWorker } from './workers.js';

/**
 * The tracking suites' set-up: one service (its workers off: tests run their own with
 * `runOnce`, see workers.ts) and a simulator per file, a fresh tenant per test, helpers to
 * publish shipment events on the real bus and read any stream back.
 */
export function useTrackingSuite(env: NodeJS.ProcessEnv = {}) {
  let harness: Harness | undefined;
  let registration: RegisterPending | undefined;
  let seq = 0;
  beforeAll(async () => {
    harness = await startHarness({ TRACKING_WORKER_INTERVAL_MS: '0', ...env });
    registration = registerWorker(harness);
  });
  afterAll(() => harness?.stop());
  beforeEach(() => {
    harness!.sim.reset();
  });
  const h = () => harness!;
  let clock = Date.now();
  const suite = {
    get h(): Harness {
      return h();
    },
    newTenant: () => `tenant-${++seq}-${Date.now()}`,
    /** One pass of the registration worker, as the service's loop would run it. */
    register: () => registration!.runOnce(),
    create: async (tenant: string, request: Partial<CreateInstanceRequest> = {}) => {
      const { instance } = await as(tenant, () =>
        h().client.call.createInstance({
          input_violations: [],
          name: 'Parcel tracking',
          api_key: GOOD_KEY,
          ...request,
        }),
      );
      return instance!.id;
    },
    /** Publishes an intake event; each call is later than the one before (envelope time). */
    assign: (tenant: string, payload: Partial<ShipmentTrackingAssigned>, at?: Date) =>
      h().service.publisher.publish(shipmentTrackingAssigned, {
        tenantId: tenant,
        occurredAt: at ?? new Date(++clock),
        payload: {
          trackable_type: 'inbound_shipment',
          trackable_id: 1,
          trackable_label: 'IS-1',
          trackable_url: '/inbound-shipments/1',
          tracking_number: '1Z999AA10123456784',
          ...payload,
        },
      }),
    change: (tenant: string, type: string, id: number, number: string, at?: Date) =>
      h().service.publisher.publish(shipmentTrackingChanged, {
        tenantId: tenant,
        occurredAt: at ?? new Date(++clock),
        payload: { trackable_type: type, trackable_id: id, tracking_number: number },
      }),
    remove: (tenant: string, type: string, id: number, at?: Date) =>
      h().service.publisher.publish(shipmentTrackingRemoved, {
        tenantId: tenant,
        occurredAt: at ?? new Date(++clock),
        payload: { trackable_type: type, trackable_id: id },
      }),
    rows: (tenant: string, instanceId: number) => h().stores.trackings.find(tenant, instanceId),
    /**
     * Rows pending registration, inserted straight through the intake store (the intake path has
     * its own tests): inbound shipments numbered from `firstTrackableId`.
     */
    pendingRows: async (
      tenant: string,
      instanceId: number,
      numbers: string[],
      firstTrackableId = 1,
    ) => {
      const now = new Date();
      for (const [index, number] of numbers.entries())
        await h().stores.trackings.insertActive(
          {
            tenant_id: tenant,
            integration_instance_id: instanceId,
            trackable_type: 'inbound_shipment',
            trackable_id: firstTrackableId + index,
            tracking_number: number,
            delivery_status: 'pending',
          },
          now,
        );
    },
    /** Waits until the instance has `count` rows matching `where`. */
    waitForRows: (
      tenant: string,
      instanceId: number,
      where: (row: TrackingDocument) => boolean,
      count = 1,
    ) =>
      eventually(async () => {
        const rows = (await h().stores.trackings.find(tenant, instanceId)).filter(where);
        if (rows.length !== count) throw new Error(`expected ${count} rows, have ${rows.length}`);
        return rows;
      }, 15_000),
  };
  return suite;
}

/** `count` tracking numbers: `prefix` then the index, zero-padded to `width` digits. */
export const numbers = (prefix: string, count: number, width = 8) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(width, '0')}`);

/** Every message of a stream on `subject` for a tenant, read with an ephemeral consumer. */
export async function streamMessages(
  harness: Harness,
  stream: string,
  subject: string,
  tenantId: string,
): Promise<EventEnvelope[]> {
  const { jetstream, jetstreamManager } = harness.service;
  const name = `test_${Math.random().toString(36).slice(2)}`;
  await jetstreamManager.consumers.add(stream, {
    name,
    ack_policy: AckPolicy.None,
    deliver_policy: DeliverPolicy.All,
    filter_subject: subject,
    inactive_threshold: 5e9,
  });
  const consumer = await jetstream.consumers.get(stream, name);
  const info = await consumer.info();
  const out: EventEnvelope[] = [];
  if (info.num_pending === 0) return out;
  const batch = await consumer.fetch({ max_messages: info.num_pending, expires: 2_000 });
  for await (const message of batch) {
    const envelope = decodeEnvelope(message.data);
    if (envelope.tenant_id === tenantId) out.push(envelope);
    if (message.info.pending === 0) break;
  }
  return out;
}
