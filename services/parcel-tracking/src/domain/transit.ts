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

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * Days in transit run from pick-up (or, when the carrier never reported a
 * pick-up, from when the row was created) to delivery. A row is on time when
 * it was delivered on or before the end of the estimated delivery day (UTC);
 * rows without an estimate are left out of the rate, not counted as late.
 */
function statsOf(rows: DeliveredRow[]): TransitStats {
  let totalDays = 0;
  let withEstimate = 0;
  let onTime = 0;
  for (const row of rows) {
    const start = row.picked_up_at ?? row.created_at;
    totalDays += Math.max(0, row.delivered_at.getTime() - start.getTime()) / DAY_MS;
    if (row.estimated_delivery_at) {
      withEstimate++;
      const estimate = row.estimated_delivery_at;
      const endOfEstimatedDay = Date.UTC(
        estimate.getUTCFullYear(),
        estimate.getUTCMonth(),
        estimate.getUTCDate() + 1,
      );
      if (row.delivered_at.getTime() < endOfEstimatedDay) onTime++;
    }
  }
  return {
    delivered_count: rows.length,
    average_days_in_transit: rows.length > 0 ? round(totalDays / rows.length, 1) : null,
    with_estimate_count: withEstimate,
    on_time_count: onTime,
    on_time_rate: withEstimate > 0 ? round((onTime / withEstimate) * 100, 1) : null,
  };
}

/** Overall and per-carrier transit analytics over rows delivered within the window ending at `now`. */
export function summarizeTransit(rows: DeliveredRow[], now: Date = new Date()): TransitSummary {
  const since = now.getTime() - TRANSIT_WINDOW_DAYS * DAY_MS;
  const inWindow = rows.filter(
    (row) => row.delivered_at.getTime() >= since && row.delivered_at.getTime() <= now.getTime(),
  );
  const byCarrier = new Map<string, DeliveredRow[]>();
  for (const row of inWindow) {
    const key = String(row.carrier_code ?? 'unknown');
    const group = byCarrier.get(key);
    if (group) group.push(row);
    else byCarrier.set(key, [row]);
  }
  const carriers = [...byCarrier.values()]
    .map((group) => ({
      carrier_code: group[0]!.carrier_code,
      carrier_name: group.find((row) => row.carrier_name)?.carrier_name ?? null,
      stats: statsOf(group),
    }))
    .sort(
      (a, b) =>
        b.stats.delivered_count - a.stats.delivered_count ||
        (a.carrier_code ?? Infinity) - (b.carrier_code ?? Infinity),
    );
  return { window_days: TRANSIT_WINDOW_DAYS, overall: statsOf(inWindow), carriers };
}
