import { createHash } from 'node:crypto';
import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';

/** Bodies above this are refused (stored as `failed` without their bytes); ADR 0220. */
export const MAX_BODY_BYTES = 256 * 1024;
/** A provider push is about 7 levels deep; anything past this is hostile or broken. */
export const MAX_JSON_DEPTH = 32;
const MAX_TEXT = 255;

/** The specification's `payload` of a webhook event row: only these keys are kept. */
export interface StoredPayload {
  event: string;
  data: {
    number: string;
    carrier: number | null;
    track_info: { latest_status: { status: string | null; sub_status: string | null } };
  };
}

/** What processing hands to parcel-tracking (its ProviderTrackingUpdate, times as ISO text). */
export interface TrackingUpdate {
  event_type: string;
  tracking_number: string;
  carrier_code: number | null;
  provider_status: string | null;
  provider_sub_status: string | null;
  latest_event_at: string | null;
  latest_event_description: string | null;
  latest_event_location: string | null;
  estimated_delivery_at: string | null;
  picked_up_at: string | null;
  /**
   * The push's event history (`track_info.tracking.providers[].events`), newest first, the
   * newest TRACKING_CHECKPOINTS_MAX with a valid time; parcel-tracking keeps them (ADR 0216).
   * Rows stored before it existed have none.
   */
  checkpoints?: PushedCheckpoint[];
}

export interface PushedCheckpoint {
  occurred_at: string;
  description: string;
  location: string;
  sub_status: string;
  stage: string;
}

export interface BodyViolation {
  field: string;
  description: string;
}

export type ReadBody =
  | {
      ok: true;
      payload: StoredPayload;
      update: TrackingUpdate;
      /** Provider retries of one push share it: event, number, event time, status (issue 18 #12). */
      identity: string;
    }
  | {
      ok: false;
      violations: BodyViolation[];
      /** What could still be read, so the failed row says which shipment it was about. */
      event_type: string;
      tracking_number: string;
    };

const object = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value.slice(0, MAX_TEXT) : null;
const isoTime = (value: unknown): string | null => {
  if (typeof value !== 'string' || value === '') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

/**
 * Deepest nesting of arrays/objects in JSON text, counted without recursion so a
 * hostile 100,000-level body cannot overflow the stack (issue 18 #2). Stops
 * counting once past `limit`.
 */
export function jsonDepthExceeds(raw: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw.charCodeAt(index);
    if (inString) {
      if (char === 92 /* \ */) index++;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 123 /* { */ || char === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (char === 125 /* } */ || char === 93 /* ] */) depth--;
  }
  return false;
}

function refuse(description: string, field = 'body', event_type = '', tracking_number = '') {
  return { ok: false as const, violations: [{ field, description }], event_type, tracking_number };
}

/** Every provider's events of a `track_info` (a parcel handed between carriers has several). */
function checkpointsOf(trackInfo: Record<string, unknown> | undefined): PushedCheckpoint[] {
  const providers = object(trackInfo?.tracking)?.providers;
  const checkpoints: PushedCheckpoint[] = [];
  for (const provider of Array.isArray(providers) ? providers : []) {
    const events = object(provider)?.events;
    for (const item of Array.isArray(events) ? events : []) {
      const event = object(item);
      const occurredAt = isoTime(event?.time_utc);
      if (!occurredAt) continue;
      checkpoints.push({
        occurred_at: occurredAt,
        description: text(event?.description) ?? '',
        location: text(event?.location) ?? '',
        sub_status: text(event?.sub_status) ?? '',
        stage: text(event?.stage) ?? '',
      });
      if (checkpoints.length >= TRACKING_CHECKPOINTS_MAX) return checkpoints;
    }
  }
  return checkpoints;
}

/** Reads a provider push (DESIGN §8) from its raw bytes, or says why it cannot be processed. */
export function readWebhookBody(raw: Uint8Array): ReadBody {
  if (raw.byteLength === 0) return refuse('The body is empty.');
  if (raw.byteLength > MAX_BODY_BYTES)
    return refuse(`The body must not be greater than ${MAX_BODY_BYTES} bytes.`);
  const source = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  if (jsonDepthExceeds(source, MAX_JSON_DEPTH))
    return refuse(`The body must not be nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    return refuse('The body is not valid JSON.');
  }
  const body = object(parsed);
  if (!body) return refuse('The body must be a JSON object.');
  const data = object(body.data);
  const eventType = typeof body.event === 'string' ? body.event.slice(0, 64) : '';
  const number = typeof data?.number === 'string' ? data.number.trim().slice(0, 64) : '';
  const violations: BodyViolation[] = [];
  if (!eventType) violations.push({ field: 'event', description: 'The event field is required.' });
  if (!number)
    violations.push({ field: 'data.number', description: 'The data.number field is required.' });
  if (violations.length > 0)
    return { ok: false, violations, event_type: eventType, tracking_number: number };

  const trackInfo = object(data!.track_info);
  const latestStatus = object(trackInfo?.latest_status);
  const latestEvent = object(trackInfo?.latest_event);
  const estimate = object(object(trackInfo?.time_metrics)?.estimated_delivery_date);
  const milestones = Array.isArray(trackInfo?.milestone) ? trackInfo.milestone : [];
  const pickedUp = milestones.map(object).find((stage) => stage?.key_stage === 'PickedUp');
  const carrier =
    typeof data!.carrier === 'number' && Number.isInteger(data!.carrier) ? data!.carrier : null;
  const status = text(latestStatus?.status);
  const subStatus = text(latestStatus?.sub_status);
  const update: TrackingUpdate = {
    event_type: eventType,
    tracking_number: number,
    carrier_code: carrier,
    provider_status: status,
    provider_sub_status: subStatus,
    latest_event_at: isoTime(latestEvent?.time_utc),
    latest_event_description: text(latestEvent?.description),
    latest_event_location: text(latestEvent?.location),
    estimated_delivery_at: isoTime(estimate?.to) ?? isoTime(estimate?.from),
    picked_up_at: isoTime(pickedUp?.time_utc),
    checkpoints: checkpointsOf(trackInfo),
  };
  return {
    ok: true,
    payload: {
      event: eventType,
      data: {
        number,
        carrier,
        track_info: { latest_status: { status, sub_status: subStatus } },
      },
    },
    update,
    identity: createHash('sha256')
      .update(
        JSON.stringify([
          eventType,
          number.toUpperCase(),
          update.latest_event_at,
          status,
          subStatus,
        ]),
      )
      .digest('hex'),
  };
}
