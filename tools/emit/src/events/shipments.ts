import {
  SHIPMENTS_STREAM,
  shipmentTrackingAssigned,
  shipmentTrackingChanged,
  shipmentTrackingRemoved,
  TRACKABLE_TYPE_SLUGS,
} from '@inventory/events';
import { z } from 'zod';
import { emittable, type EmittableEvent } from '../emittable-event.js';

const trackableType = z.enum(TRACKABLE_TYPE_SLUGS as [string, ...string[]]);
const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const trackingNumber = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/, 'letters, digits and dashes only');

/** The shipment areas' tracking events (proto/events/v1/shipment.proto). */
export const SHIPMENT_EVENTS: EmittableEvent[] = [
  emittable({
    name: 'shipment.tracking_assigned',
    description:
      'a tracking number assigned to a trackable record: trackable_type, trackable_id, trackable_label, trackable_url, tracking_number, carrier_code?, sales_channel_id?, sub_channel_id?',
    type: shipmentTrackingAssigned,
    stream: SHIPMENTS_STREAM,
    data: z
      .object({
        trackable_type: trackableType,
        trackable_id: id,
        trackable_label: z.string().max(255).default(''),
        trackable_url: z
          .string()
          .max(2048)
          .regex(/^\/(?!\/)/, 'must be a relative path starting with /')
          .default('/'),
        tracking_number: trackingNumber,
        carrier_code: id.optional(),
        sales_channel_id: id.optional(),
        sub_channel_id: id.optional(),
      })
      .strict(),
  }),
  emittable({
    name: 'shipment.tracking_changed',
    description:
      "a trackable record's tracking number replaced: trackable_type, trackable_id, tracking_number, carrier_code?",
    type: shipmentTrackingChanged,
    stream: SHIPMENTS_STREAM,
    data: z
      .object({
        trackable_type: trackableType,
        trackable_id: id,
        tracking_number: trackingNumber,
        carrier_code: id.optional(),
      })
      .strict(),
  }),
  emittable({
    name: 'shipment.tracking_removed',
    description: "a trackable record's tracking removed: trackable_type, trackable_id",
    type: shipmentTrackingRemoved,
    stream: SHIPMENTS_STREAM,
    data: z.object({ trackable_type: trackableType, trackable_id: id }).strict(),
  }),
];
