/** A path id: a positive integer, else the 404 envelope (as for an unknown record). */
export function pathId(raw: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
