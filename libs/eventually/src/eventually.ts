/**
 * The one way a test waits: poll a condition until it holds. The cap is a safety net against a
 * hang, never the assertion, so it is generous (a loaded 2-core CI box is slow, not broken).
 * Time itself is not waited for: inject a clock instead (see docs/CONVENTIONS.md).
 */
export interface EventuallyOptions {
  /** Gives up after this long; keep it below the test's own timeout so the failure names `what`. */
  timeoutMs?: number;
  /** Pause between attempts. */
  everyMs?: number;
  /** What is awaited, for the timeout's message. */
  what?: string;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_EVERY_MS = 50;

const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

function optionsOf(options: number | string | EventuallyOptions | undefined): EventuallyOptions {
  if (typeof options === 'number') return { timeoutMs: options };
  if (typeof options === 'string') return { what: options };
  return options ?? {};
}

/**
 * Retries `check` until it returns without throwing (an `expect` inside is the usual check),
 * and gives back what it returned. On the cap, the last error is thrown as it was.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options?: number | string | EventuallyOptions,
): Promise<T> {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, everyMs = DEFAULT_EVERY_MS, what } = optionsOf(options);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) {
        if (what && error instanceof Error)
          error.message = `timed out after ${timeoutMs} ms waiting for ${what}: ${error.message}`;
        throw error;
      }
    }
    await pause(everyMs);
  }
}

/**
 * `eventually` for a value that appears: retries while `check` throws or answers `undefined`
 * or `false`, and gives back the first other answer.
 */
export function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options?: number | string | EventuallyOptions,
): Promise<T> {
  return eventually(
    async () => {
      const value = await check();
      if (value === undefined || value === false) throw new Error(`the answer is still ${value}`);
      return value;
    },
    { what: 'a value', ...optionsOf(options) },
  );
}
