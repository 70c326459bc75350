export {
  ACTIVITY_DEFAULT_PER_PAGE,
  ACTIVITY_MAX_PER_PAGE,
  ACTIVITY_SORTS,
  ALERTS_DEFAULT_PER_PAGE,
  ALERTS_MAX_PER_PAGE,
} from './activity.js';
export type { ActivitySort } from './activity.js';
export {
  endOfDay,
  isoDay,
  parseDay,
  parseIsoDay,
  parseMdY,
  startOfDay,
  type CalendarDay,
  type DayFormats,
} from './dates.js';
export {
  AUTO_TRACK_KEYS,
  DELIVERY_STATUSES,
  CARRIER_THRESHOLDS_MAX,
  SHIPMENT_WATCH_DEFAULTS,
  SIDE_EFFECT_KEYS,
  STALLED_AFTER_HOURS_MAX,
  TRACKABLE_TYPE_SLUGS,
  TRACKABLE_TYPES,
  TRACKING_CHECKPOINTS_MAX,
  TRACKING_SORTS,
  TRACKINGS_DEFAULT_PER_PAGE,
  TRACKINGS_MAX_PER_PAGE,
} from './parcel-tracking.js';
export type {
  AutoTrackKey,
  DeliveryStatus,
  SideEffectKey,
  TrackableType,
  TrackingSort,
} from './parcel-tracking.js';
export { PRODUCT_SORTS, PURCHASE_INVOICE_SORTS } from './catalog.js';
export {
  pageInfo,
  readPage,
  withIdTiebreak,
  type PageInfo,
  type PageViolation,
  type SortKey,
} from './pages.js';
export {
  OUTBOUND_DELIVERY_STATUSES,
  WEBHOOK_LOG_DEFAULT_PER_PAGE,
  WEBHOOK_LOG_MAX_PER_PAGE,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
  WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
  WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
} from './webhooks.js';
export type { OutboundDeliveryStatus, WebhookResult } from './webhooks.js';
export { controlCharactersMessage, hasControlCharacters } from './text.js';
