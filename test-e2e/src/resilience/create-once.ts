import { waitFor } from '@inventory/local-infra';
import type { HttpResponse } from '../fixtures/http.js';

/**
 * Creates one resource for a run's set-up, as a careful client does on a busy machine: a JSON 503
 * says "try again shortly", but the create may have landed before the gateway stopped waiting
 * (its peer watch answers 503 after 600 ms without a health answer, ADR 0744). So after each 503
 * it first looks for what the POST made, and posts again only when there is none; the run never
 * starts with two. Any other refusal fails at once.
 */
export async function createOnce<T>(
  what: string,
  post: () => Promise<HttpResponse>,
  findExisting: () => Promise<T | undefined>,
  capMs = 30_000,
): Promise<T> {
  let last: HttpResponse | undefined;
  type Outcome = { created: T } | { refused: HttpResponse | undefined };
  const outcome = await waitFor<Outcome>(
    async () => {
      if (last?.status === 503) {
        const existing = await findExisting();
        if (existing !== undefined) return { created: existing };
      }
      last = await post();
      if (last.status === 201) return { created: last.body.data as T };
      return last.status === 503 ? undefined : { refused: last };
    },
    { timeoutMs: capMs, everyMs: 250, what },
  ).catch((): Outcome => ({ refused: last }));
  if ('created' in outcome) return outcome.created;
  throw new Error(`${what}: ${outcome.refused?.status} ${outcome.refused?.text}`);
}
