import { linksMetaEnvelopeSchema } from '../../http/page-schemas.js';
import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';
import { dataOf, row } from '../../http/row-schema.js';
import { ACTIVITY_ROW } from '../activity/schemas.js';
import { WEBHOOK_EVENT_ROW } from '../webhooks/webhook-event-schema.js';

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

/** How many of a shipment's newest webhooks and activity rows its answer carries (ADR 0217). */
export const TRACKING_DETAIL_RECENT = 50;

/** One carrier checkpoint of a row (ADR 0216); `tracking-detail.ts` `presentCheckpoint` builds it. */
export const CHECKPOINT_ROW = row({
  occurred_at: 'date-time',
  description: 'string',
  location: 'string',
  status: 'string',
  sub_status: 'string',
  stage: 'string',
});

/**
 * The list's row, then what only the shipment's page reads: its timeline, and the newest
 * webhooks and activity naming its number (`tracking-detail.ts` builds it).
 */
export const TRACKING_DETAIL = row({
  ...TRACKING_ROW_FIELDS,
  checkpoints: {
    type: 'array',
    description: `The carrier checkpoints kept for the row, newest first (at most ${TRACKING_CHECKPOINTS_MAX}).`,
    items: CHECKPOINT_ROW,
  },
  webhooks: {
    type: 'array',
    description: `The newest inbound webhooks (at most ${TRACKING_DETAIL_RECENT}) naming the row's tracking number, of the instance and its history, newest first; the webhook log lists them all.`,
    items: WEBHOOK_EVENT_ROW,
  },
  webhooks_total: { type: 'integer', description: 'How many inbound webhooks name the number.' },
  activity: {
    type: 'array',
    description: `The newest activity rows (at most ${TRACKING_DETAIL_RECENT}) whose properties.tracking_number is the row's number, newest first.`,
    items: ACTIVITY_ROW,
  },
  activity_total: { type: 'integer', description: 'How many activity rows name the number.' },
});

export const trackingSchema = {
  summary: 'One tracked shipment with its checkpoint timeline (its page in the web app)',
  response: { 200: dataOf(TRACKING_DETAIL) },
};
