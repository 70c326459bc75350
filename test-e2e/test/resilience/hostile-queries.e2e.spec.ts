import { describe, expect, it } from 'vitest';
import { methodOf, pathFor, send } from './harness.js';
import { ROUTES, useHostileInput } from './hostile-suite.js';

const BAD_PAGING = [
  'page=1e9',
  'page=-1',
  'page=0',
  'page=abc',
  'per_page=0',
  'per_page=abc',
  'per_page=-5',
];
const ODD_QUERIES = [
  'per_page=1e9',
  'page[]=1',
  'page[a]=1',
  'page=1&page=2',
  'page=%00',
  'filter[search]=a%00b',
  'filter[tracking_number]=%00',
  'filter[unknown]=x',
  'sort=%27;drop',
  `q=${'y'.repeat(5000)}`,
];

/** A paged list answer: `data` is a list and the paging fields sit beside it or under `meta`. */
function isPagedList(body: unknown): boolean {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { data?: unknown }).data))
    return false;
  const { meta } = body as { meta?: object };
  const keys = [...Object.keys(body), ...Object.keys(meta ?? {})];
  return keys.some((key) => ['per_page', 'current_page', 'next_cursor', 'last_page'].includes(key));
}

describe('hostile paging and query strings on every read of the route table', () => {
  const suite = useHostileInput('queries');

  it('refuses out-of-range paging on every list and survives odd query strings everywhere', async () => {
    const { r, a, probes } = suite;
    const reads = ROUTES.filter((route) => methodOf(route) === 'GET');
    const problems = await probes.perRoute(reads, async (route) => {
      const path = pathFor(route, a);
      const isList = isPagedList((await send(r, a, route)).body);
      const queries = [
        ...BAD_PAGING.map((query) => ({ query, expectation: isList ? 'refused' : 'any' }) as const),
        ...ODD_QUERIES.map((query) => ({ query, expectation: 'any' }) as const),
      ];
      return queries.map(({ query, expectation }) =>
        probes.probe(
          `${route} [?${query.slice(0, 30)}]`,
          () => send(r, a, route, { path: `${path}?${query}` }),
          expectation,
        ),
      );
    });
    expect(problems).toEqual([]);
  });

  it('answers a NUL in any search filter 422, and repeating it opens no breaker: the lists keep answering', async () => {
    const { a } = suite;
    const base = `/api/integrations/parcel-tracking/instances/${a.instanceId}`;
    const searches = [
      [`${base}/trackings?filter[search]=a%00b`, 'filter.search'],
      [`${base}/webhooks?filter[tracking_number]=a%00b`, 'filter.tracking_number'],
      [`${base}/activity?filter[search]=%00`, 'filter.search'],
    ] as const;
    for (let round = 0; round < 5; round++)
      for (const [path, field] of searches) {
        const refused = await a.fixture.request('GET', path);
        expect(refused.status, path).toBe(422);
        expect(refused.body.errors[field], path).toEqual([
          `The ${field} field must not contain control characters.`,
        ]);
      }
    for (const path of [`${base}/trackings`, `${base}/webhooks`, `${base}/activity`, base])
      expect((await a.fixture.request('GET', path)).status, path).toBe(200);
  });
});
