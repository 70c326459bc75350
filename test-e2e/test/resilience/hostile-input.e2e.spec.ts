import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, type HttpResponse } from '../../src/fixtures/http.js';
import {
  ROUTE_TABLE,
  envelopeProblem,
  methodOf,
  pathFor,
  populatedTenant,
  reportFigures,
  send,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from './harness.js';
import { snapshotOf } from './snapshot.js';

/**
 * Issue #18: every route in the gateway's route table (iterated, so a new route is probed
 * without editing this file) under hostile input. Expected: 4xx (2xx where the input is in fact
 * valid), never 5xx, every error in the specification's envelope family, and a refused write
 * changes nothing. Problems are collected and asserted empty at the end of each case so one run
 * lists all of them; the totals are printed for the issue's closing figures.
 */

/** Writes whose effect does not come from the body: probed only where they cannot act. */
const ACTION_ROUTES = new Set([
  'POST /auth/logout',
  'POST /api/user/two-factor',
  'POST /api/alerts/read-all',
  'POST /api/alerts/:id/read',
  // Any body, even `{}`, gives the token a new secret: the suite's own token would stop working.
  'POST /api/personal-access-tokens/:id/regenerate',
  'POST /api/webhook-subscriptions/:id/rotate-secret',
  'POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver',
  'POST /api/webhook-subscriptions/:id/test',
  'POST /api/webhook-subscriptions/:id/pause',
  'POST /api/webhook-subscriptions/:id/resume',
  // Reprocessing reads no body (the bulk one's filters are the log's query; ADR 0230).
  'POST /api/integrations/parcel-tracking/instances/:instance/webhooks/:webhook/reprocess',
  'POST /api/integrations/parcel-tracking/instances/:instance/webhooks/reprocess',
]);
/** Stores any body as received (the provider's signature is checked later): 2xx is right. */
const ACCEPTS_ANY_BODY = new Set(['POST /webhooks/parcel-tracking/:token']);

const routes = Object.keys(ROUTE_TABLE);
const writes = routes.filter((route) => !['GET', 'HEAD'].includes(methodOf(route)));
const bodyRoutes = writes.filter(
  (route) => !ACTION_ROUTES.has(route) && !(methodOf(route) === 'DELETE' && route.includes(':')),
);
const withIds = routes.filter((route) => route.includes(':'));
const credentialed = routes.filter((route) => ROUTE_TABLE[route]!.access !== 'public');

const nested = (depth: number, open: string, close: string, leaf = '1') =>
  open.repeat(depth) + leaf + close.repeat(depth);
const HUGE = 'x'.repeat(200_000);
const WRONG_TYPES = {
  name: 12345,
  email: ['a@b.test'],
  password: { value: 'x' },
  api_key: true,
  url: 42,
  events: 'product.created',
  scopes: 'orders:read',
  code: {},
  two_factor_code: [],
  expires_at: 'not-a-date',
  ip_allowlist: 'not-a-list',
  is_active: 'yes',
  active: 'yes',
  rate_limit_per_minute: 'fast',
};

interface BodyVariant {
  label: string;
  raw: string | Buffer;
  contentType?: string;
  /** The body may be a valid (no-op) write: 2xx is allowed, the snapshot must still not change. */
  mayBeValid?: true;
}
/** The same nasty value under every field name a route's body may have. */
const everyField = (value: string) =>
  `{${Object.keys(WRONG_TYPES)
    .map((key) => `"${key}":${value}`)
    .join(',')}}`;
const BODY_VARIANTS: BodyVariant[] = [
  { label: 'wrong types', raw: JSON.stringify(WRONG_TYPES) },
  {
    label: 'huge strings',
    raw: JSON.stringify(Object.fromEntries(Object.keys(WRONG_TYPES).map((key) => [key, HUGE]))),
  },
  { label: 'over the body limit', raw: JSON.stringify({ name: 'x'.repeat(1_200_000) }) },
  { label: '2,000 nested objects', raw: nested(2000, '{"a":', '}'), mayBeValid: true },
  { label: '2,000 nested arrays', raw: nested(2000, '[', ']') },
  { label: '2,000 nested objects in every field', raw: everyField(nested(2000, '{"a":', '}')) },
  { label: 'array', raw: '[1,2,3]' },
  { label: 'null', raw: 'null' },
  { label: 'string', raw: '"a string"' },
  { label: 'number', raw: '42' },
  { label: 'malformed JSON', raw: '{"name": "x",' },
  { label: 'empty JSON body', raw: '' },
  { label: 'text/plain', raw: JSON.stringify({ name: 'x' }), contentType: 'text/plain' },
  { label: 'form', raw: 'name=x&api_key=y', contentType: 'application/x-www-form-urlencoded' },
  {
    label: 'multipart',
    raw: '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
    contentType: 'multipart/form-data; boundary=b',
  },
  {
    label: 'utf-16 charset',
    raw: Buffer.from(JSON.stringify({ name: 'x' }), 'utf16le'),
    contentType: 'application/json; charset=utf-16',
  },
  {
    label: 'invalid UTF-8',
    raw: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    mayBeValid: true,
  },
  {
    label: 'NUL in strings',
    raw: JSON.stringify(
      Object.fromEntries(Object.keys(WRONG_TYPES).map((key) => [key, `a\u0000b`])),
    ),
  },
  {
    label: 'prototype keys',
    raw: '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
    mayBeValid: true,
  },
];

const ODD_IDS = [
  '-1',
  '0',
  '1e9',
  'abc',
  '9'.repeat(300),
  '%00',
  '1.5',
  '%20',
  '0x10',
  '..%2F..',
  'null',
];
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

describe('hostile input on every route of the route table', () => {
  let r: ResilienceSystem;
  let a: PopulatedTenant;
  const tally = { sent: 0, serverErrors: 0 };

  beforeAll(async () => {
    r = await startResilienceSystem();
    a = await populatedTenant(r);
  }, 120_000);
  afterAll(async () => {
    reportFigures(
      `hostile-input: ${tally.sent} hostile requests sent, ${tally.serverErrors} answered 5xx`,
    );
    await r?.stop();
  });

  /** Sends one probe and returns what is wrong with its answer (nothing: undefined). */
  async function probe(
    label: string,
    send: () => Promise<HttpResponse>,
    expectation: 'refused' | 'any',
  ): Promise<string | undefined> {
    tally.sent += 1;
    let response: HttpResponse;
    try {
      response = await send();
    } catch (error) {
      return `${label}: no answer (${(error as Error).message})`;
    }
    if (response.status >= 500) {
      tally.serverErrors += 1;
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

  async function collect(probes: Array<Promise<string | undefined>>) {
    return (await Promise.all(probes)).filter((problem): problem is string => !!problem);
  }

  it('refuses malformed, mistyped, huge, nested and mislabelled bodies without writing', async () => {
    const before = await snapshotOf(r, a);
    const problems: string[] = [];
    for (const route of bodyRoutes) {
      problems.push(
        ...(await collect(
          BODY_VARIANTS.map((variant) =>
            probe(
              `${route} [${variant.label}]`,
              () =>
                send(r, a, route, {
                  body: variant.raw,
                  headers: { 'content-type': variant.contentType ?? 'application/json' },
                }),
              ACCEPTS_ANY_BODY.has(route) || variant.mayBeValid ? 'any' : 'refused',
            ),
          ),
        )),
      );
    }
    expect({ problems, state: await snapshotOf(r, a) }).toEqual({ problems: [], state: before });
  });

  it('refuses odd ids in every path parameter without writing', async () => {
    const before = await snapshotOf(r, a);
    const problems: string[] = [];
    for (const route of withIds) {
      const write = !['GET', 'HEAD'].includes(methodOf(route));
      problems.push(
        ...(await collect(
          ODD_IDS.map((id) =>
            probe(
              `${route} [id ${id.slice(0, 20)}]`,
              () =>
                send(r, a, route, {
                  path: pathFor(route, a, id),
                  ...(write ? { body: JSON.stringify({ name: 'renamed' }) } : {}),
                }),
              'refused',
            ),
          ),
        )),
      );
    }
    expect({ problems, state: await snapshotOf(r, a) }).toEqual({ problems: [], state: before });
  });

  it('refuses invalid credentials, unknown hosts and odd headers on every credentialed route', async () => {
    const before = await snapshotOf(r, a);
    const problems: string[] = [];
    const badAuthorizations = [
      '',
      'Bearer',
      'Bearer ',
      'Basic YTpi',
      `Bearer ${'x'.repeat(6_000)}`,
      `Bearer ${'x'.repeat(20_000)}`,
      'Bearer 1|',
      'Bearer -1|abc',
      `Bearer ${'9'.repeat(300)}|x`,
      'Bearer abc|def',
      `Bearer ${a?.tokenId ?? 1}|wrong-secret`,
      'Bearer a b c',
    ];
    const unknownHosts = [
      'nope.inventory.localhost',
      `${'a'.repeat(250)}.test`,
      '[::1]',
      'x:99999',
    ];
    const noise = {
      accept: 'text/html',
      'x-forwarded-for': '::::, 999.1.1.1, <script>',
      'x-request-id': 'r'.repeat(2_000),
      cookie: 'session=%%%; other=;;=; x=""',
      'content-type': 'application/json',
    };
    for (const route of credentialed) {
      const write = !['GET', 'HEAD'].includes(methodOf(route));
      const body = write ? JSON.stringify({ name: 'renamed' }) : undefined;
      const probes = [
        ...badAuthorizations.map((authorization) =>
          probe(
            `${route} [authorization ${authorization.slice(0, 24)}]`,
            () =>
              httpCall(r.system.gatewayUrl, methodOf(route), pathFor(route, a), {
                host: a.fixture.host,
                rawBody: body,
                headers: authorization ? { authorization } : {},
              }),
            'refused',
          ),
        ),
        ...unknownHosts.map((host) =>
          probe(
            `${route} [host ${host.slice(0, 24)}]`,
            () => send(r, a, route, { body, headers: { host } }),
            'refused',
          ),
        ),
        probe(
          `${route} [odd headers, wrong secret]`,
          () =>
            httpCall(r.system.gatewayUrl, methodOf(route), pathFor(route, a), {
              host: a.fixture.host,
              rawBody: body,
              headers: { ...noise, authorization: `Bearer ${a.tokenId}|wrong-secret` },
            }),
          'refused',
        ),
      ];
      if (ROUTE_TABLE[route]!.access === 'session' && write)
        probes.push(
          probe(
            `${route} [session without CSRF header]`,
            () =>
              httpCall(r.system.gatewayUrl, methodOf(route), pathFor(route, a), {
                host: a.fixture.host,
                rawBody: body,
                headers: { cookie: a.session.cookie },
              }),
            'refused',
          ),
        );
      problems.push(...(await collect(probes)));
    }
    for (const route of routes.filter((name) => !credentialed.includes(name)))
      problems.push(
        ...(await collect([
          probe(`${route} [odd headers]`, () => send(r, a, route, { headers: noise }), 'any'),
        ])),
      );
    expect({ problems, state: await snapshotOf(r, a) }).toEqual({ problems: [], state: before });
  });

  it('refuses out-of-range paging on every list and survives odd query strings everywhere', async () => {
    const problems: string[] = [];
    const reads = routes.filter((route) => methodOf(route) === 'GET');
    for (const route of reads) {
      const path = pathFor(route, a);
      const baseline = await send(r, a, route);
      const isList = isPagedList(baseline.body);
      const queries = [
        ...BAD_PAGING.map((query) => ({ query, expectation: isList ? 'refused' : 'any' }) as const),
        ...ODD_QUERIES.map((query) => ({ query, expectation: 'any' }) as const),
      ];
      problems.push(
        ...(await collect(
          queries.map(({ query, expectation }) =>
            probe(
              `${route} [?${query.slice(0, 30)}]`,
              () => send(r, a, route, { path: `${path}?${query}` }),
              expectation,
            ),
          ),
        )),
      );
    }
    expect(problems).toEqual([]);
  });

  it('answers a NUL in any search filter 422, and repeating it opens no breaker: the lists keep answering', async () => {
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
