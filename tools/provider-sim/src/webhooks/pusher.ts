import { createHash } from 'node:crypto';
import { post } from './post.js';

export type WebhookEvent = 'TRACKING_UPDATED' | 'TRACKING_STOPPED';

/** The `sign` header: hex SHA-256 of `<raw body>/<api key>`. */
export function signBody(rawBody: string, apiKey: string): string {
  return createHash('sha256').update(`${rawBody}/${apiKey}`).digest('hex');
}

export interface PushOptions {
  url: string;
  /** The exact body to send (already serialised; it is what gets signed). */
  body: string;
  apiKey: string;
  /** Total attempts, first one included. Default 3. */
  maxAttempts?: number;
  /** Pause between attempts. Default 500 ms. */
  retryDelayMs?: number;
  /** Per-attempt timeout. Default 5000 ms. */
  timeoutMs?: number;
}

export interface PushResult {
  delivered: boolean;
  /** HTTP status of the last attempt (`null` when it failed at network level). */
  status: number | null;
  attempts: number;
  /** Status of each attempt, in order. */
  statuses: Array<number | null>;
  /** The last network error, if any. */
  error?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** POSTs a signed webhook; retries non-2xx answers and network errors, bounded. */
export async function pushSigned(options: PushOptions): Promise<PushResult> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const statuses: Array<number | null> = [];
  let error: string | undefined;
  const sign = signBody(options.body, options.apiKey);
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    if (attempt > 1) await sleep(options.retryDelayMs ?? 500);
    try {
      const status = await post(
        options.url,
        options.body,
        { 'content-type': 'application/json', sign },
        options.timeoutMs ?? 5000,
      );
      statuses.push(status);
      error = undefined;
      if (status >= 200 && status < 300)
        return { delivered: true, status, attempts: attempt, statuses };
    } catch (err) {
      statuses.push(null);
      error = err instanceof Error ? err.message : String(err);
    }
  }
  const result: PushResult = {
    delivered: false,
    status: statuses[statuses.length - 1] ?? null,
    attempts: statuses.length,
    statuses,
  };
  if (error) result.error = error;
  return result;
}
