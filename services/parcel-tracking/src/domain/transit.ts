import { startOfUtcDay, utcDay, utcDaysFrom } from './utc-days.js';

/** The transit analytics window: rows delivered in the last 90 days. */
export const TRANSIT_WINDOW_DAYS = 90;

const DAY_MS = 24 * 3600 * 1000;

export interface DeliveredRow {
  carrier_code: number | null;
  carrier_name: string | null;
  created_at: Date;
  picked_up_at: Date | null;
  delivered_at: Date;
  estimated_delivery_at: Date | null;
}

/** The fields of a row the statistics read besides `delivered_at`, which is set once. */
export const TRANSIT_FIELDS = [
  'carrier_code',
  'carrier_name',
  'created_at',
  'picked_up_at',
  'estimated_delivery_at',
] as const satisfies ReadonlyArray<keyof DeliveredRow>;

export interface TransitStats {
  delivered_count: number;
  average_days_in_transit: number | null;
  with_estimate_count: number;
  on_time_count: number;
  on_time_rate: number | null;
}

export interface TransitSummary {
  window_days: number;
  overall: TransitStats;
  carriers: Array<{
    carrier_code: number | null;
    carrier_name: string | null;
    stats: TransitStats;
  }>;
}

/** One carrier's sums over some delivered rows: what the statistics are computed from, and kept. */
export interface CarrierTransitSums {
  carrier_code: number | null;
  carrier_name: string | null;
  delivered_count: number;
  days_in_transit: number;
  with_estimate_count: number;
  on_time_count: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const emptySums = (carrierCode: number | null): CarrierTransitSums => ({
  carrier_code: carrierCode,
  carrier_name: null,
  delivered_count: 0,
  days_in_transit: 0,
  with_estimate_count: 0,
  on_time_count: 0,
});

function addSums(into: CarrierTransitSums, sums: CarrierTransitSums): void {
  into.carrier_name ??= sums.carrier_name;
  into.delivered_count += sums.delivered_count;
  into.days_in_transit += sums.days_in_transit;
  into.with_estimate_count += sums.with_estimate_count;
  into.on_time_count += sums.on_time_count;
}

/**
 * Days in transit run from pick-up (or, when the carrier never reported a
 * pick-up, from when the row was created) to delivery. A row is on time when
 * it was delivered on or before the end of the estimated delivery day (UTC);
 * rows without an estimate are left out of the rate, not counted as late.
 */
function sumsOfRow(row: DeliveredRow): CarrierTransitSums {
  const start = row.picked_up_at ?? row.created_at;
  const sums = {
    ...emptySums(row.carrier_code),
    carrier_name: row.carrier_name || null,
    delivered_count: 1,
    days_in_transit: Math.max(0, row.delivered_at.getTime() - start.getTime()) / DAY_MS,
  };
  const estimate = row.estimated_delivery_at;
  if (estimate) {
    sums.with_estimate_count = 1;
    const endOfEstimatedDay = Date.UTC(
      estimate.getUTCFullYear(),
      estimate.getUTCMonth(),
      estimate.getUTCDate() + 1,
    );
    if (row.delivered_at.getTime() < endOfEstimatedDay) sums.on_time_count = 1;
  }
  return sums;
}

/** Sums per carrier (`null` for rows without one), carriers in the order first met. */
export function mergeTransitSums(parts: Iterable<CarrierTransitSums>): CarrierTransitSums[] {
  const byCarrier = new Map<number | null, CarrierTransitSums>();
  for (const part of parts) {
    let into = byCarrier.get(part.carrier_code);
    if (!into) byCarrier.set(part.carrier_code, (into = emptySums(part.carrier_code)));
    addSums(into, part);
  }
  return [...byCarrier.values()];
}

/** The sums per carrier of these delivered rows. */
export function sumTransit(rows: Iterable<DeliveredRow>): CarrierTransitSums[] {
  return mergeTransitSums([...rows].map(sumsOfRow));
}

function statsOf(sums: CarrierTransitSums): TransitStats {
  const delivered = sums.delivered_count;
  const withEstimate = sums.with_estimate_count;
  return {
    delivered_count: delivered,
    average_days_in_transit: delivered > 0 ? round(sums.days_in_transit / delivered, 1) : null,
    with_estimate_count: withEstimate,
    on_time_count: sums.on_time_count,
    on_time_rate: withEstimate > 0 ? round((sums.on_time_count / withEstimate) * 100, 1) : null,
  };
}

/** Overall and per-carrier analytics from the window's sums, the busiest carrier first. */
export function transitSummaryOf(window: Iterable<CarrierTransitSums>): TransitSummary {
  const carriers = mergeTransitSums(window);
  const overall = emptySums(null);
  for (const sums of carriers) addSums(overall, { ...sums, carrier_name: null });
  return {
    window_days: TRANSIT_WINDOW_DAYS,
    overall: statsOf(overall),
    carriers: carriers
      .map((sums) => ({
        carrier_code: sums.carrier_code,
        carrier_name: sums.carrier_name,
        stats: statsOf(sums),
      }))
      .sort(
        (a, b) =>
          b.stats.delivered_count - a.stats.delivered_count ||
          (a.carrier_code ?? Infinity) - (b.carrier_code ?? Infinity),
      ),
  };
}

/** Overall and per-carrier transit analytics over rows delivered within the window ending at `now`. */
export function summarizeTransit(rows: DeliveredRow[], now: Date = new Date()): TransitSummary {
  const { since } = transitWindow(now);
  return transitSummaryOf(
    sumTransit(
      rows.filter(
        (row) =>
          row.delivered_at.getTime() >= since.getTime() &&
          row.delivered_at.getTime() <= now.getTime(),
      ),
    ),
  );
}

/**
 * The window ending at `now`, cut where a day's sums can be kept (ADR 0239): the whole UTC days
 * strictly inside it (`wholeDays`, oldest first, each `[start, end)`), and the two partial ends
 * whose rows are always read, the first day's from `since` and today's up to `now`.
 */
export function transitWindow(now: Date): {
  since: Date;
  head: { start: Date; end: Date };
  wholeDays: Array<{ day: string; start: Date; end: Date }>;
  today: { start: Date; end: Date };
} {
  const since = new Date(now.getTime() - TRANSIT_WINDOW_DAYS * DAY_MS);
  const headEnd = new Date(startOfUtcDay(since).getTime() + DAY_MS);
  const todayStart = startOfUtcDay(now);
  const wholeDays = utcDaysFrom(headEnd, new Date(todayStart.getTime() - 1)).map((day) => ({
    day: utcDay(day.start),
    ...day,
  }));
  return {
    since,
    head: { start: since, end: headEnd },
    wholeDays,
    today: { start: todayStart, end: now },
  };
}

/** Whether a write of `changes` to a delivered row moves its statistics (the kept sums must be redone). */
export function changesTransit(
  row: Partial<Pick<DeliveredRow, (typeof TRANSIT_FIELDS)[number]>> & { delivered_at: Date | null },
  changes: Record<string, unknown>,
): boolean {
  if (changes.delivered_at instanceof Date) return true;
  if (!row.delivered_at) return false;
  return TRANSIT_FIELDS.some((field) => {
    if (!(field in changes)) return false;
    const before = row[field] ?? null;
    const after = changes[field] ?? null;
    return before instanceof Date && after instanceof Date
      ? before.getTime() !== after.getTime()
      : before !== after;
  });
}
