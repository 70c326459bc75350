import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { dataOf, row } from '../../http/row-schema.js';

/** The specification's tracking row (trackings.ts `presentTracking` builds it, in this order). */
export const TRACKING_ROW = row({
  id: 'integer',
  trackable_type: 'string',
  trackable_id: 'integer',
  trackable_label: 'string',
  trackable_url: 'string',
  tracking_number: 'string',
  carrier_code: 'integer?',
  carrier_name: 'string?',
  delivery_status: 'string',
  delivery_status_label: 'string',
  delivery_status_color: 'string',
  sub_status: 'string?',
  latest_event_description: 'string?',
  latest_event_location: 'string?',
  last_event_at: 'date-time?',
  estimated_delivery_at: 'date-time?',
  delivered_at: 'date-time?',
  picked_up_at: 'date-time?',
  registered_at: 'date-time?',
  registration_error: 'string?',
  stopped_at: 'date-time?',
  created_at: 'date-time?',
});

export const trackingsSchema = { response: { 200: linksMetaEnvelopeSchema(TRACKING_ROW) } };

export const trackingSchema = {
  summary: 'One tracked shipment (its page in the web app)',
  response: { 200: dataOf(TRACKING_ROW) },
};
