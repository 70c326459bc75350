import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';
import { dataOf, row } from '../../http/row-schema.js';

/** The specification's tracking row (trackings.ts `presentTracking` builds it, in this order). */
const TRACKING_ROW_FIELDS = {
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
} as const;
export const TRACKING_ROW = row(TRACKING_ROW_FIELDS);

export const trackingsSchema = { response: { 200: linksMetaEnvelopeSchema(TRACKING_ROW) } };

/** One carrier checkpoint of a row (ADR 0216); `trackings.ts` `presentCheckpoint` builds it. */
export const CHECKPOINT_ROW = row({
  occurred_at: 'date-time',
  description: 'string',
  location: 'string',
  status: 'string',
  sub_status: 'string',
  stage: 'string',
});

/** The list's row, then what only the shipment's page reads: its timeline. */
export const TRACKING_DETAIL = row({
  ...TRACKING_ROW_FIELDS,
  checkpoints: {
    type: 'array',
    description: `The carrier checkpoints kept for the row, newest first (at most ${TRACKING_CHECKPOINTS_MAX}).`,
    items: CHECKPOINT_ROW,
  },
});

export const trackingSchema = {
  summary: 'One tracked shipment with its checkpoint timeline (its page in the web app)',
  response: { 200: dataOf(TRACKING_DETAIL) },
};
