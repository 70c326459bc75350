/** Time formatting in 17TRACK style: `time_iso` with the carrier's offset, `time_utc` with `Z`. */

function offsetMinutes(offset: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function localParts(date: Date, offset: string): { date: string; time: string } {
  const shifted = new Date(date.getTime() + offsetMinutes(offset) * 60_000).toISOString();
  return { date: shifted.slice(0, 10), time: shifted.slice(11, 19) };
}

export function toUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function toIso(date: Date, offset: string): string {
  const p = localParts(date, offset);
  return `${p.date}T${p.time}${offset}`;
}

export function toRaw(
  date: Date,
  offset: string,
): { date: string; time: string; timezone: string } {
  return { ...localParts(date, offset), timezone: offset };
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** Whole days from `from` to `to` (never negative). */
export function daysBetween(from: Date, to: Date): number {
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / 86_400_000));
}
