import { alertEntry, vendorCreditShipmentDelivered } from '@inventory/events';
import type { OutboxEntry } from '@inventory/platform';
import type { SideEffectSettings } from '../domain/instance-settings.js';
import { trackableTypeOf } from '../domain/trackable-type.js';
import {
  shipmentAlertProperties,
  trackableLabel,
  type AlertedShipment,
} from '../domain/shipment-alert.js';

/**
 * The side effects of a row becoming delivered (spec: side_effects), each
 * behind its switch. The caller writes them through the outbox together with
 * the row's `delivery_effects_at`, so they fire at most once per shipment; the
 * event ids are derived from the row as well, so a republish is absorbed.
 */
export function deliveryEffects(
  tenantId: string,
  settings: SideEffectSettings,
  row: AlertedShipment,
  deliveredAt: Date,
): Array<OutboxEntry<unknown>> {
  const type = trackableTypeOf(row.trackable_type);
  const label = trackableLabel(row);
  const properties = shipmentAlertProperties(row);
  if (type === 'vendor_credit_shipment' && settings.vendor_credit_shipment_auto_delivered)
    return [
      {
        type: vendorCreditShipmentDelivered,
        event: {
          tenantId,
          id: `vendor-credit-delivered:${tenantId}:${row.trackable_id}`,
          payload: {
            vendor_credit_shipment_id: row.trackable_id,
            tracking_number: row.tracking_number,
            delivered_at: deliveredAt,
            integration_instance_id: row.integration_instance_id,
          },
        },
      },
    ];
  if (type === 'inbound_shipment' && settings.inbound_shipment_arrival_alert)
    return [
      alertEntry({
        tenantId,
        key: `inbound_shipment_delivered:${row.trackable_id}`,
        kind: 'inbound_shipment_delivered',
        title: 'Inbound shipment delivered',
        message: `Inbound shipment ${label} (${row.tracking_number}) was delivered and is ready to receive.`,
        link: row.trackable_url,
        properties,
        occurredAt: deliveredAt,
      }),
    ];
  if (type === 'rma' && settings.rma_arrival_alert)
    return [
      alertEntry({
        tenantId,
        key: `rma_delivered:${row.trackable_id}`,
        kind: 'rma_delivered',
        title: 'RMA delivered',
        message: `RMA ${label} (${row.tracking_number}) was delivered and is ready to inspect.`,
        link: row.trackable_url,
        properties,
        occurredAt: deliveredAt,
      }),
    ];
  return [];
}
