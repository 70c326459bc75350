/**
 * Names of UTC that MongoDB accepts as a date operator's `timezone` and mingo refuses ("timezone
 * 'UTC' is invalid"): mingo takes offsets and `Area/City` names only. They mean offset zero.
 */
const UTC_NAMES = new Set([
  'UTC',
  'GMT',
  'UCT',
  'Zulu',
  'Universal',
  'Greenwich',
  'GMT0',
  'GMT+0',
  'GMT-0',
  'Etc/UTC',
  'Etc/GMT',
  'Etc/UCT',
  'Etc/Zulu',
  'Etc/Universal',
  'Etc/Greenwich',
  'Etc/GMT0',
  'Etc/GMT+0',
  'Etc/GMT-0',
]);

/**
 * The pipeline with every `timezone: <a name of UTC>` written as `+00:00`, so mingo answers what
 * MongoDB does. Answers the same object when there is none (the common case copies nothing).
 */
export function utcNamesAsOffsets<T>(spec: T): T {
  if (Array.isArray(spec)) {
    let changed = false;
    const out = spec.map((item: unknown) => {
      const next = utcNamesAsOffsets(item);
      if (next !== item) changed = true;
      return next;
    });
    return (changed ? out : spec) as T;
  }
  if (!spec || typeof spec !== 'object' || Object.getPrototypeOf(spec) !== Object.prototype)
    return spec;
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(spec as Record<string, unknown>)) {
    const next =
      key === 'timezone' && typeof value === 'string' && UTC_NAMES.has(value)
        ? '+00:00'
        : utcNamesAsOffsets(value);
    if (next !== value) (out ??= { ...(spec as Record<string, unknown>) })[key] = next;
  }
  return (out ?? spec) as T;
}
