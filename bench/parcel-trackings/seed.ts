import mongoose from 'mongoose';

const STATUSES = [
  'pending',
  'info_received',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'not_found',
];
const TYPES = [
  'sales_order_fulfillment',
  'inbound_shipment',
  'rma',
  'warehouse_transfer_shipment',
  'vendor_credit_shipment',
];
const CARRIERS = [100002, 21051, 100003, 190271, 3011];

const PLACES = ['Louisville, KY', 'Memphis, TN', 'Leipzig, DE', 'Shenzhen, CN', 'Chicago, IL'];
const HOUR = 3_600_000;

/**
 * `rows` tracking rows of one instance, straight into parcel-tracking's database: already
 * registered and freshly polled, so the background workers leave them alone during a run. Each
 * row has `checkpoints` carrier checkpoints in `tracking_checkpoints`, as the service keeps them
 * (ADR 0216). One in-transit row in 20 has been quiet for 100 hours (stalled at the default 72),
 * and every row has an estimated delivery, one in 10 of the undelivered ones already past (late).
 */
export async function seedTrackings(
  mongoUrl: string,
  tenantId: string,
  instanceId: number,
  rows: number,
  checkpoints = 0,
): Promise<void> {
  const connection = await mongoose
    .createConnection(mongoUrl, { dbName: 'parcel_tracking' })
    .asPromise();
  const collection = connection.db!.collection('tracking_rows');
  const kept = connection.db!.collection('tracking_checkpoints');
  const now = Date.now();
  for (let start = 0; start < rows; start += 2000) {
    const docs = [];
    const history = [];
    for (let i = start; i < Math.min(rows, start + 2000); i++) {
      const status = STATUSES[i % STATUSES.length]!;
      const created = new Date(now - (rows - i) * 60_000);
      const quiet = status === 'in_transit' && i % 20 === 2;
      const event = quiet ? new Date(now - 100 * HOUR) : new Date(created.getTime() + HOUR);
      const estimate = new Date(now + (i % 10 === 4 ? -24 : 48) * HOUR);
      for (let n = 0; n < checkpoints; n++) {
        const at = new Date(event.getTime() - (checkpoints - 1 - n) * 6 * HOUR);
        history.push({
          tenant_id: tenantId,
          tracking_id: 50_000_000 + i,
          key: `bench-${i}-${n}`,
          occurred_at: at,
          seq: n,
          description: n === 0 ? 'Shipment information received' : 'Departed facility',
          location: PLACES[(i + n) % PLACES.length]!,
          status: n === 0 ? 'info_received' : 'in_transit',
          sub_status: n === 0 ? 'InfoReceived' : 'InTransit_Other',
          stage: '',
          recorded_at: at,
          touched_at: event,
        });
      }
      docs.push({
        id: 50_000_000 + i,
        tenant_id: tenantId,
        integration_instance_id: instanceId,
        trackable_type: TYPES[i % TYPES.length],
        trackable_id: i + 1,
        trackable_label: `S-${i + 1}`,
        trackable_url: `/shipments/${i + 1}`,
        tracking_number: `BENCH${String(i).padStart(10, '0')}`,
        carrier_code: CARRIERS[i % CARRIERS.length],
        carrier_name: null,
        delivery_status: status,
        sub_status: null,
        latest_event_description: 'Event',
        latest_event_location: null,
        last_event_at: event,
        estimated_delivery_at: estimate,
        delivered_at: status === 'delivered' ? event : null,
        picked_up_at: null,
        registered_at: created,
        registration_error: null,
        registration_failed_at: null,
        stopped_at: null,
        provider_stopped_at: null,
        active: true,
        sales_channel_id: null,
        sub_channel_id: null,
        lease_owner: null,
        lease_until: null,
        registration_attempts: 0,
        next_attempt_at: null,
        // Freshly polled: the polling worker leaves them alone during the run.
        last_polled_at: new Date(now + 24 * 3_600_000),
        delivery_effects_at: null,
        last_webhook_event_id: null,
        last_status_from: null,
        revision: 0,
        created_at: created,
        updated_at: created,
      });
    }
    await collection.insertMany(docs, { ordered: false });
    if (history.length > 0) await kept.insertMany(history, { ordered: false });
  }
  await connection.close();
}
