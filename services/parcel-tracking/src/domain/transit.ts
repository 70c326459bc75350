/** The transit analytics window: rows delivered in the last 90 days. */
export const TRANSIT_WINDOW_DAYS = 90;

export const DAY_MS = 24 * 3600 * 1000;

/**
 * One carrier's delivered rows in the window, summed in the database (`TRANSIT_PIPELINE`): days
 * in transit run from pick-up (or, when the carrier never reported one, from the row's creation)
 * to delivery; a row is on time when delivered before the end of its estimated delivery day (UTC),
 * and rows without an estimate are left out of the rate, not counted late.
 */
export interface TransitGroup {
  carrier_code: number | null;
  carrier_name: string | null;
  delivered_count: number;
  transit_ms: number;
  with_estimate_count: number;
  on_time_count: number;
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

function statsOf(sums: Omit<TransitGroup, 'carrier_code' | 'carrier_name'>): TransitStats {
  const count = sums.delivered_count;
  return {
    delivered_count: count,
    average_days_in_transit: count > 0 ? round(sums.transit_ms / DAY_MS / count, 1) : null,
    with_estimate_count: sums.with_estimate_count,
    on_time_count: sums.on_time_count,
    on_time_rate:
      sums.with_estimate_count > 0
        ? round((sums.on_time_count / sums.with_estimate_count) * 100, 1)
        : null,
  };
}

/** Overall and per-carrier transit analytics from the window's per-carrier sums. */
export function summarizeTransit(groups: TransitGroup[]): TransitSummary {
  const overall = { delivered_count: 0, transit_ms: 0, with_estimate_count: 0, on_time_count: 0 };
  for (const group of groups) {
    overall.delivered_count += group.delivered_count;
    overall.transit_ms += group.transit_ms;
    overall.with_estimate_count += group.with_estimate_count;
    overall.on_time_count += group.on_time_count;
  }
  const carriers = groups
    .map((group) => ({
      carrier_code: group.carrier_code,
      carrier_name: group.carrier_name,
      stats: statsOf(group),
    }))
    .sort(
      (a, b) =>
        b.stats.delivered_count - a.stats.delivered_count ||
        (a.carrier_code ?? Infinity) - (b.carrier_code ?? Infinity),
    );
  return { window_days: TRANSIT_WINDOW_DAYS, overall: statsOf(overall), carriers };
}
