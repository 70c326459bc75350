import type { FieldViolation } from '@inventory/platform';
import { DELIVERY_STATUSES, TERMINAL_STATUSES } from './delivery-status.js';
import {
  CARRIER_THRESHOLDS_MAX,
  SHIPMENT_WATCH_DEFAULTS,
  STALLED_AFTER_HOURS_MAX,
} from '@inventory/rules';

/**
 * Stalled and late shipments (ADR 0218). A shipment in transit whose carrier has reported no
 * new checkpoint for longer than its carrier's threshold is stalled; one past its estimated
 * delivery and not delivered is late. Both only for active rows (a stopped row is no longer
 * watched). Each instance sets the thresholds and the two alert switches.
 */
export { CARRIER_THRESHOLDS_MAX, STALLED_AFTER_HOURS_MAX };

const NOT_TERMINAL_STATUSES = DELIVERY_STATUSES.filter(
  (status) => !TERMINAL_STATUSES.includes(status),
);
const CARRIER_CODE_MAX = 999_999;

export interface CarrierThreshold {
  carrier_code: number;
  hours: number;
}

/** An instance's watch settings: the answer's `shipment_watch`, and what the instance stores. */
export interface ShipmentWatchSettings {
  /** Hours without a checkpoint after which a shipment in transit is stalled. */
  stalled_after_hours: number;
  /** Per-carrier thresholds, for carriers slower or faster than the default. */
  carrier_stalled_after_hours: CarrierThreshold[];
  /** One in-app alert per shipment, the first time it is stalled. */
  stalled_alert: boolean;
  /** One in-app alert per shipment, the first time it is late. */
  late_alert: boolean;
}

export interface ShipmentWatchPatch {
  stalled_after_hours?: number | undefined;
  /** Replaces the list when present. */
  carrier_stalled_after_hours?: CarrierThreshold[] | undefined;
  stalled_alert?: boolean | undefined;
  late_alert?: boolean | undefined;
}

/** The settings of an instance; one stored before the settings existed watches with the defaults. */
export function shipmentWatchOf(
  stored: Partial<ShipmentWatchSettings> | undefined,
): ShipmentWatchSettings {
  return {
    stalled_after_hours: stored?.stalled_after_hours ?? SHIPMENT_WATCH_DEFAULTS.stalled_after_hours,
    carrier_stalled_after_hours: stored?.carrier_stalled_after_hours ?? [],
    stalled_alert: stored?.stalled_alert ?? SHIPMENT_WATCH_DEFAULTS.stalled_alert,
    late_alert: stored?.late_alert ?? SHIPMENT_WATCH_DEFAULTS.late_alert,
  };
}

/** PATCH semantics: the keys present change; the carrier list is replaced whole. */
export function mergeShipmentWatch(
  current: ShipmentWatchSettings,
  patch: ShipmentWatchPatch | undefined,
): ShipmentWatchSettings {
  if (!patch) return current;
  return {
    stalled_after_hours: patch.stalled_after_hours ?? current.stalled_after_hours,
    carrier_stalled_after_hours: (
      patch.carrier_stalled_after_hours ?? current.carrier_stalled_after_hours
    ).map(({ carrier_code, hours }) => ({ carrier_code, hours })),
    stalled_alert: patch.stalled_alert ?? current.stalled_alert,
    late_alert: patch.late_alert ?? current.late_alert,
  };
}

const validHours = (hours: number) =>
  Number.isInteger(hours) && hours >= 1 && hours <= STALLED_AFTER_HOURS_MAX;

/** Laravel-style messages, each naming the field's dotted path. */
export function checkShipmentWatch(
  violations: FieldViolation[],
  patch: ShipmentWatchPatch | undefined,
): void {
  if (!patch) return;
  const range = `must be a whole number of hours between 1 and ${STALLED_AFTER_HOURS_MAX}`;
  if (patch.stalled_after_hours !== undefined && !validHours(patch.stalled_after_hours))
    violations.push({
      field: 'shipment_watch.stalled_after_hours',
      description: `The shipment watch.stalled after hours field ${range}.`,
    });
  const carriers = patch.carrier_stalled_after_hours;
  if (!carriers) return;
  const field = 'shipment_watch.carrier_stalled_after_hours';
  if (carriers.length > CARRIER_THRESHOLDS_MAX)
    violations.push({
      field,
      description: `The ${field} field must not have more than ${CARRIER_THRESHOLDS_MAX} items.`,
    });
  const seen = new Set<number>();
  for (const [index, { carrier_code, hours }] of carriers.entries()) {
    if (!Number.isInteger(carrier_code) || carrier_code < 1 || carrier_code > CARRIER_CODE_MAX)
      violations.push({
        field: `${field}.${index}.carrier_code`,
        description: `The carrier code must be a carrier's code, a whole number between 1 and ${CARRIER_CODE_MAX}.`,
      });
    else if (seen.has(carrier_code))
      violations.push({
        field: `${field}.${index}.carrier_code`,
        description: `Carrier ${carrier_code} is listed more than once.`,
      });
    seen.add(carrier_code);
    if (!validHours(hours))
      violations.push({ field: `${field}.${index}.hours`, description: `The hours ${range}.` });
  }
}

/** The stalled conditions' thresholds, in milliseconds. */
export interface StalledThresholds {
  defaultMs: number;
  byCarrier: ReadonlyArray<{ carrier_code: number; ms: number }>;
}

export function stalledThresholds(settings: ShipmentWatchSettings): StalledThresholds {
  return {
    defaultMs: settings.stalled_after_hours * 3_600_000,
    byCarrier: settings.carrier_stalled_after_hours.map(({ carrier_code, hours }) => ({
      carrier_code,
      ms: hours * 3_600_000,
    })),
  };
}

/**
 * The MongoDB conditions of a stalled row at `now`. With per-carrier thresholds, one branch per
 * listed carrier and one for every other carrier (a row whose carrier is not known yet included),
 * each a range on `last_event_at` that the `{delivery_status, last_event_at}` index serves.
 */
export function stalledConditions(
  now: Date,
  thresholds: StalledThresholds,
): Record<string, unknown> {
  const quietSince = (ms: number) => ({ $lt: new Date(now.getTime() - ms) });
  const rows = { active: true, delivery_status: 'in_transit' };
  if (thresholds.byCarrier.length === 0)
    return { ...rows, last_event_at: quietSince(thresholds.defaultMs) };
  return {
    ...rows,
    $or: [
      ...thresholds.byCarrier.map(({ carrier_code, ms }) => ({
        carrier_code,
        last_event_at: quietSince(ms),
      })),
      {
        carrier_code: { $nin: thresholds.byCarrier.map(({ carrier_code }) => carrier_code) },
        last_event_at: quietSince(thresholds.defaultMs),
      },
    ],
  };
}

/**
 * The MongoDB conditions of a late row at `now`: past its estimate in a status that is not
 * terminal (a delivered row stays delivered, so `delivered_at` needs no test of its own). The
 * statuses are listed, not excluded, so the index bounds each one's range of estimates.
 */
export function lateConditions(now: Date): Record<string, unknown> {
  return {
    active: true,
    delivery_status: { $in: NOT_TERMINAL_STATUSES },
    estimated_delivery_at: { $lt: now },
  };
}

/** The threshold that made a row stalled, in hours, for the alert's words. */
export function stalledHoursFor(
  settings: ShipmentWatchSettings,
  carrierCode: number | null,
): number {
  return (
    settings.carrier_stalled_after_hours.find((entry) => entry.carrier_code === carrierCode)
      ?.hours ?? settings.stalled_after_hours
  );
}
