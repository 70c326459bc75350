import type { Logger } from '@inventory/platform';
import {
  sumTransit,
  transitSummaryOf,
  transitWindow,
  type CarrierTransitSums,
  type DeliveredRow,
  type TransitSummary,
} from '../domain/transit.js';
import { utcDay } from '../domain/utc-days.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TransitDaysRepository } from '../store/transit-days-repository.js';

/**
 * How far before the kept sums' time a change still counts as after it: another replica's
 * clock, and a write whose time was taken before it landed (ADR 0239).
 */
export const TRANSIT_CHANGE_MARGIN_MS = 5 * 60_000;

/** Adjacent `[start, end)` spans joined, so a read asks for as few ranges as it can. */
function joined(spans: Array<{ start: Date; end: Date }>) {
  const out: Array<{ start: Date; end: Date }> = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (last && last.end.getTime() === span.start.getTime()) last.end = span.end;
    else out.push({ ...span });
  }
  return out;
}

/** The window's analytics, and how many rows were delivered each UTC day of it (`YYYY-MM-DD`). */
export interface TransitRead {
  summary: TransitSummary;
  /** Every whole day of the window and today (up to `now`); days without a delivery left out. */
  deliveredPerDay: Map<string, number>;
}

/**
 * The transit analytics of the window ending at `now` (ADR 0239). The whole days' sums are kept
 * per instance; only the days missing from them, or holding a row whose statistics changed since
 * they were kept, are read again, with the window's two partial ends. The sums read are kept for
 * the next reader; failing to keep them never fails the read. The same sums count the
 * deliveries of each day for the dashboard's trends, so those are not counted again.
 */
export async function readTransit(
  deps: { trackings: TrackingRepository; transitDays: TransitDaysRepository; logger: Logger },
  tenantId: string,
  instanceId: number,
  now: Date,
): Promise<TransitRead> {
  const { trackings, transitDays, logger } = deps;
  const window = transitWindow(now);
  const kept = await transitDays.kept(tenantId, instanceId);
  const changed = kept
    ? await trackings.transitChangedSince(
        tenantId,
        instanceId,
        new Date(kept.computedAt.getTime() - TRANSIT_CHANGE_MARGIN_MS),
      )
    : [];
  const stale = new Set(changed.map(utcDay));
  const redo = window.wholeDays.filter((day) => stale.has(day.day) || !kept?.days.has(day.day));
  const redone = new Set(redo.map((day) => day.day));
  // One range query per run of adjacent days: an index serves each (an `$or` of ranges is a
  // collection scan on the embedded server).
  const spans = joined([
    window.head,
    ...redo,
    // Today's end is `now` itself, which counts.
    { start: window.today.start, end: new Date(now.getTime() + 1) },
  ]);
  const rows = (
    await Promise.all(spans.map((span) => trackings.deliveredWithin(tenantId, instanceId, span)))
  ).flat();

  const rowsByDay = new Map<string, DeliveredRow[]>();
  const ends: DeliveredRow[] = [];
  for (const row of rows) {
    const at = row.delivered_at.getTime();
    if (at < window.head.end.getTime() || at >= window.today.start.getTime()) {
      if (at >= window.since.getTime()) ends.push(row);
      continue;
    }
    const day = utcDay(row.delivered_at);
    const group = rowsByDay.get(day);
    if (group) group.push(row);
    else rowsByDay.set(day, [row]);
  }
  const days = new Map<string, CarrierTransitSums[]>();
  for (const { day } of window.wholeDays) {
    days.set(day, redone.has(day) ? sumTransit(rowsByDay.get(day) ?? []) : kept!.days.get(day)!);
  }
  if (redo.length > 0) {
    await transitDays
      .keep(tenantId, instanceId, now, days)
      .catch((error: unknown) =>
        logger.warn({ err: error, instance_id: instanceId }, 'transit sums not kept'),
      );
  }
  const deliveredPerDay = new Map<string, number>();
  for (const [day, carriers] of days) {
    const delivered = carriers.reduce((sum, carrier) => sum + carrier.delivered_count, 0);
    if (delivered > 0) deliveredPerDay.set(day, delivered);
  }
  const today = ends.filter((row) => row.delivered_at.getTime() >= window.today.start.getTime());
  if (today.length > 0) deliveredPerDay.set(utcDay(window.today.start), today.length);
  return {
    summary: transitSummaryOf([...[...days.values()].flat(), ...sumTransit(ends)]),
    deliveredPerDay,
  };
}
