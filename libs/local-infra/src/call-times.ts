/**
 * From now on, when each call of `target[method]` is made (`Date.now()`, in order); the calls
 * themselves are unchanged. What a back-off test reads of a poller's looks (ADR 0715).
 */
export function callTimes<T extends object, K extends keyof T>(target: T, method: K): number[] {
  const times: number[] = [];
  const original = target[method] as (...args: unknown[]) => unknown;
  target[method] = function (this: unknown, ...args: unknown[]) {
    times.push(Date.now());
    return original.apply(this, args);
  } as T[K];
  return times;
}
