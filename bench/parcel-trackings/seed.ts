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

/**
 * `rows` tracking rows of one instance, straight into parcel-tracking's database: already
 * registered and freshly polled, so the background workers leave them alone during a run.
 */
export async function seedTrackings(
  mongoUrl: string,
  tenantId: string,
  instanceId: number,
  rows: number,
): Promise<void> {
  const connection = await mongoose
    .createConnection(mongoUrl, { dbName: 'parcel_tracking' })
    .asPromise();
  const collection = connection.db!.collection('tracking_rows');
  const now = Date.now();
  for (let start = 0; start < rows; start += 2000) {
    const docs = [];
    for (let i = start; i < Math.min(rows, start + 2000); i++) {
      const status = STATUSES[i % STATUSES.length]!;
      const created = new Date(now - (rows - i) * 60_000);
      const event = new Date(created.getTime() + 3_600_000);
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
        estimated_delivery_at: null,
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
  }
  await connection.close();
}
