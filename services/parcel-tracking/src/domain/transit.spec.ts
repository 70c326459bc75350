import { describe, expect, it } from 'vitest';
import { DAY_MS, summarizeTransit, type TransitGroup } from './transit.js';

function group(partial: Partial<TransitGroup>): TransitGroup {
  return {
    carrier_code: 100002,
    carrier_name: 'UPS',
    delivered_count: 0,
    transit_ms: 0,
    with_estimate_count: 0,
    on_time_count: 0,
    ...partial,
  };
}

describe('transit analytics from per-carrier sums', () => {
  it('is empty with null averages when nothing was delivered', () => {
    expect(summarizeTransit([])).toEqual({
      window_days: 90,
      overall: {
        delivered_count: 0,
        average_days_in_transit: null,
        with_estimate_count: 0,
        on_time_count: 0,
        on_time_rate: null,
      },
      carriers: [],
    });
  });

  it('averages days per row and rates on time among rows with an estimate, overall and per carrier', () => {
    const summary = summarizeTransit([
      group({
        carrier_code: 190271,
        carrier_name: 'DHL',
        delivered_count: 1,
        transit_ms: 3 * DAY_MS,
      }),
      group({
        delivered_count: 2,
        transit_ms: 6 * DAY_MS,
        with_estimate_count: 2,
        on_time_count: 1,
      }),
    ]);
    expect(summary.overall).toEqual({
      delivered_count: 3,
      average_days_in_transit: 3,
      with_estimate_count: 2,
      on_time_count: 1,
      on_time_rate: 50,
    });
    // Most deliveries first.
    expect(summary.carriers.map((carrier) => [carrier.carrier_code, carrier.stats])).toEqual([
      [
        100002,
        {
          delivered_count: 2,
          average_days_in_transit: 3,
          with_estimate_count: 2,
          on_time_count: 1,
          on_time_rate: 50,
        },
      ],
      [
        190271,
        {
          delivered_count: 1,
          average_days_in_transit: 3,
          with_estimate_count: 0,
          on_time_count: 0,
          on_time_rate: null,
        },
      ],
    ]);
  });

  it('rounds to one decimal, and orders equal counts by carrier code with no carrier last', () => {
    const summary = summarizeTransit([
      group({ carrier_code: null, carrier_name: null, delivered_count: 1, transit_ms: DAY_MS }),
      group({
        carrier_code: 7,
        delivered_count: 3,
        transit_ms: DAY_MS,
        with_estimate_count: 3,
        on_time_count: 2,
      }),
      group({ carrier_code: 3, delivered_count: 1, transit_ms: DAY_MS }),
    ]);
    expect(summary.carriers.map((carrier) => carrier.carrier_code)).toEqual([7, 3, null]);
    expect(summary.carriers[0]!.stats.average_days_in_transit).toBe(0.3);
    expect(summary.carriers[0]!.stats.on_time_rate).toBe(66.7);
  });
});
