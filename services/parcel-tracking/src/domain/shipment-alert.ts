import type { TrackingDocument } from '../store/tracking.js';

/** The row fields every alert about one shipment names. */
export type AlertedShipment = Pick<
  TrackingDocument,
  | 'id'
  | 'trackable_type'
  | 'trackable_id'
  | 'trackable_label'
  | 'trackable_url'
  | 'tracking_number'
  | 'integration_instance_id'
>;

/** The shipment's record as a message names it: its own label, else its id. */
export const trackableLabel = (row: AlertedShipment) =>
  row.trackable_label || `#${row.trackable_id}`;

/**
 * The properties every shipment alert carries (delivered, stalled, late): the instance, the
 * tracking row and the record it tracks, so a client can link each without parsing the message.
 */
export function shipmentAlertProperties(row: AlertedShipment) {
  return {
    integration_instance_id: row.integration_instance_id,
    tracking_id: row.id,
    tracking_number: row.tracking_number,
    trackable_type: row.trackable_type,
    trackable_id: row.trackable_id,
  };
}
