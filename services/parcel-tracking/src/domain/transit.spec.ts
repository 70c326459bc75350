import { describe, expect, it } from 'vitest';
import {
  changesTransit,
  mergeTransitSums,
  summarizeTransit,
  sumTransit,
  transitSummaryOf,
  transitWindow,
  type DeliveredRow,
} from './transit.js';

const now = new Date('2025-06-30T12:00:00Z');
const day = (iso: string) => new Date(iso);

function row(partial: Partial<DeliveredRow> & Pick<DeliveredRow, 'delivered_at'>): DeliveredRow {
  return {
    carrier_code: 100002,
    carrier_name: 'UPS',
    created_at: day('2025-06-01T00:00:00Z'),
    picked_up_at: null,
    estimated_delivery_at: null,
    ...partial,
  };
}

describe('transit analytics', () => {
  it('is empty with null averages when nothing was delivered', () => {
    expect(summarizeTransit([], now)).toEqual({
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

  it('averages days from pick-up (or creation) to delivery, and rates on-time against the estimate day', () => {
    const rows = [
      // 2 days from pick-up; estimate that same day: on time.
      row({
        picked_up_at: day('2025-06-10T08:00:00Z'),
        delivered_at: day('2025-06-12T08:00:00Z'),
        estimated_delivery_at: day('2025-06-12T00:00:00Z'),
      }),
      // 4 days from pick-up; estimate the day before: late.
      row({
        picked_up_at: day('2025-06-10T08:00:00Z'),
        delivered_at: day('2025-06-14T08:00:00Z'),
        estimated_delivery_at: day('2025-06-13T00:00:00Z'),
      }),
      // No pick-up: counted from creation (3 days); no estimate: left out of the rate.
      row({
        carrier_code: 190271,
        carrier_name: 'DHL',
        created_at: day('2025-06-01T00:00:00Z'),
        delivered_at: day('2025-06-04T00:00:00Z'),
      }),
    ];
    const summary = summarizeTransit(rows, now);
    expect(summary.overall).toEqual({
      delivered_count: 3,
      average_days_in_transit: 3,
      with_estimate_count: 2,
      on_time_count: 1,
      on_time_rate: 50,
    });
    expect(summary.carriers).toEqual([
      {
        carrier_code: 100002,
        carrier_name: 'UPS',
        stats: {
          delivered_count: 2,
          average_days_in_transit: 3,
          with_estimate_count: 2,
          on_time_count: 1,
          on_time_rate: 50,
        },
      },
      {
        carrier_code: 190271,
        carrier_name: 'DHL',
        stats: {
          delivered_count: 1,
          average_days_in_transit: 3,
          with_estimate_count: 0,
          on_time_count: 0,
          on_time_rate: null,
        },
      },
    ]);
  });

  it('only counts rows delivered in the last 90 days', () => {
    const rows = [
      row({ delivered_at: day('2025-04-01T13:00:00Z') }),
      row({ delivered_at: day('2025-03-01T00:00:00Z') }),
    ];
    expect(summarizeTransit(rows, now).overall.delivered_count).toBe(1);
  });

  it('sums kept per day and merged answer what the rows answer', () => {
    const rows = [
      row({
        delivered_at: day('2025-06-12T08:00:00Z'),
        estimated_delivery_at: day('2025-06-12T00:00:00Z'),
      }),
      row({
        delivered_at: day('2025-06-14T08:00:00Z'),
        estimated_delivery_at: day('2025-06-13T00:00:00Z'),
      }),
      row({ carrier_code: null, carrier_name: null, delivered_at: day('2025-06-14T09:00:00Z') }),
    ];
    const perDay = [sumTransit(rows.slice(0, 1)), sumTransit(rows.slice(1))];
    expect(transitSummaryOf(perDay.flat())).toEqual(summarizeTransit(rows, now));
    expect(mergeTransitSums(perDay.flat())).toEqual(sumTransit(rows));
  });
});

describe('the transit window cut into days', () => {
  it('reads the partial first day and today, and keeps the 89 whole days between', () => {
    const window = transitWindow(now);
    expect(window.since).toEqual(day('2025-04-01T12:00:00Z'));
    expect(window.head).toEqual({ start: window.since, end: day('2025-04-02T00:00:00Z') });
    expect(window.today).toEqual({ start: day('2025-06-30T00:00:00Z'), end: now });
    expect(window.wholeDays).toHaveLength(89);
    expect(window.wholeDays[0]).toEqual({
      day: '2025-04-02',
      start: day('2025-04-02T00:00:00Z'),
      end: day('2025-04-03T00:00:00Z'),
    });
    expect(window.wholeDays.at(-1)!.day).toBe('2025-06-29');
  });
});

describe("which writes move a row's transit statistics", () => {
  const delivered = row({
    delivered_at: day('2025-06-12T08:00:00Z'),
    estimated_delivery_at: day('2025-06-12T00:00:00Z'),
  });

  it('is every delivery, and a change to a field the statistics read once delivered', () => {
    expect(changesTransit({ delivered_at: null }, { delivered_at: now })).toBe(true);
    expect(changesTransit({ delivered_at: null }, { estimated_delivery_at: now })).toBe(false);
    expect(changesTransit(delivered, { estimated_delivery_at: now })).toBe(true);
    expect(changesTransit(delivered, { carrier_name: 'DHL' })).toBe(true);
    expect(changesTransit(delivered, { picked_up_at: now })).toBe(true);
  });

  it('is not a write of the same values or of fields the statistics do not read', () => {
    expect(
      changesTransit(delivered, {
        estimated_delivery_at: new Date(delivered.estimated_delivery_at!.getTime()),
        carrier_name: 'UPS',
        delivery_status: 'exception',
        last_event_at: now,
      }),
    ).toBe(false);
  });
});
