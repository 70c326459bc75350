import type { HttpResponse } from '../fixtures/http.js';

/** Keys of the specification's error bodies (gateway/src/http/envelopes.ts). */
const ENVELOPE_KEYS = new Set([
  'message',
  'errors',
  'status',
  'code',
  'required_scope',
  'retry_after_seconds',
]);

/** Why `body` is outside the envelope family, or undefined when it is inside. */
export function envelopeProblem(
  contentType: string | string[] | undefined,
  body: unknown,
): string | undefined {
  if (!String(contentType ?? '').includes('application/json')) return `content-type ${contentType}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'not a JSON object';
  const record = body as Record<string, unknown>;
  if (typeof record.message !== 'string') return 'no string message';
  const extra = Object.keys(record).filter((key) => !ENVELOPE_KEYS.has(key));
  if (extra.length) return `unexpected keys ${extra.join(',')}`;
  if (record.errors !== undefined) {
    if (typeof record.errors !== 'object' || record.errors === null) return 'errors not an object';
    for (const list of Object.values(record.errors))
      if (!Array.isArray(list)) return 'errors[x] not a list';
  }
  return undefined;
}

/** Probes under way, each to answer what is wrong with its answer (nothing: undefined). */
type Probes = Array<Promise<string | undefined>>;

/** `refused`: only a 4xx will do; `any`: the input may be valid, so 2xx passes too. */
export type ProbeExpectation = 'refused' | 'any';

/**
 * Hostile requests and what is wrong with their answers: 4xx expected (2xx where the input may
 * in fact be valid), never 5xx, every error in the specification's envelope family. Problems are
 * collected rather than asserted one by one, so one run lists all of them; the totals are the
 * issue's closing figures.
 */
export class HostileProbes {
  sent = 0;
  serverErrors = 0;

  /** Sends one probe and returns what is wrong with its answer (nothing: undefined). */
  async probe(
    label: string,
    send: () => Promise<HttpResponse>,
    expectation: ProbeExpectation,
  ): Promise<string | undefined> {
    this.sent += 1;
    let response: HttpResponse;
    try {
      response = await send();
    } catch (error) {
      return `${label}: no answer (${(error as Error).message})`;
    }
    if (response.status >= 500) {
      this.serverErrors += 1;
      return `${label}: ${response.status} ${response.text.slice(0, 200)}`;
    }
    if (response.status >= 400) {
      const problem = envelopeProblem(response.headers['content-type'], response.body);
      if (problem)
        return `${label}: ${response.status} outside the envelopes (${problem}): ${response.text.slice(0, 200)}`;
    } else if (expectation === 'refused') {
      return `${label}: accepted with ${response.status}: ${response.text.slice(0, 200)}`;
    }
    return undefined;
  }

  /** Each route's probes, sent together, one route at a time: every problem, in route order. */
  async perRoute(
    routes: string[],
    probesOf: (route: string) => Probes | Promise<Probes>,
  ): Promise<string[]> {
    const problems: string[] = [];
    for (const route of routes) {
      const answers = await Promise.all(await probesOf(route));
      problems.push(...answers.filter((problem): problem is string => !!problem));
    }
    return problems;
  }

  /** The line a suite prints for the figures. */
  figures(suite: string): string {
    return `hostile-input (${suite}): ${this.sent} hostile requests sent, ${this.serverErrors} answered 5xx`;
  }
}
