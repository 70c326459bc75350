import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, type HttpResponse } from '../../src/fixtures/http.js';
import {
  ROUTE_TABLE,
  credentialsFor,
  methodOf,
  pathFor,
  populatedTenant,
  reportFigures,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from './harness.js';
import { snapshotOf } from './snapshot.js';

/**
 * Issue #18: two tenants, every route of the route table. A's credentials on B's host, A's ids
 * on B's host with B's credentials, A's inbound webhook token under B's host, A's session and
 * password on B's host. A leak is any success, or any of A's identifiers in an answer on B's
 * host; both tenants' state must be unchanged. Attempts and leaks are printed for the issue.
 */
const routes = Object.keys(ROUTE_TABLE).filter((route) => !ROUTE_TABLE[route]!.tenantless);
const isWrite = (route: string) => !['GET', 'HEAD'].includes(methodOf(route));
const WRITE_BODY = JSON.stringify({ name: 'taken over', url: 'http://127.0.0.1:9/x' });

describe('two tenants: nothing of one is reachable from the other', () => {
  let r: ResilienceSystem;
  let a: PopulatedTenant;
  let b: PopulatedTenant;
  const tally = { attempts: 0, leaks: 0 };

  beforeAll(async () => {
    r = await startResilienceSystem();
    // Ids come from global sequences: B's are made first, so none of A's exist on B.
    b = await populatedTenant(r);
    a = await populatedTenant(r);
  }, 120_000);
  afterAll(async () => {
    reportFigures(
      `tenant-isolation: ${tally.attempts} cross-tenant attempts, ${tally.leaks} leaks`,
    );
    await r?.stop();
  });

  /** A's identifiers that must never appear in an answer given on B's host. */
  const secretsOfA = () => [
    a.fixture.host,
    a.fixture.tenant.id,
    a.fixture.user.email,
    a.webhookPath.split('/').pop()!,
  ];

  async function attempt(
    label: string,
    response: Promise<HttpResponse>,
    expected: number,
  ): Promise<string | undefined> {
    tally.attempts += 1;
    const answer = await response;
    const leaked =
      (answer.status >= 200 && answer.status < 300) ||
      secretsOfA().some((secret) => answer.text.includes(secret));
    if (leaked) tally.leaks += 1;
    if (leaked || answer.status !== expected)
      return `${label}: ${answer.status}${leaked ? ' LEAK' : ''} ${answer.text.slice(0, 200)}`;
    return undefined;
  }

  const onHostOfB = (
    route: string,
    path: string,
    headers: Record<string, string>,
  ): Promise<HttpResponse> =>
    httpCall(r.system.gatewayUrl, methodOf(route), path, {
      host: b.fixture.host,
      rawBody: isWrite(route) ? WRITE_BODY : undefined,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it("refuses A's token and A's session on B's host on every route (401)", async () => {
    const before = [await snapshotOf(r, a), await snapshotOf(r, b)];
    const credentialed = routes.filter((route) => ROUTE_TABLE[route]!.access !== 'public');
    const problems = await Promise.all(
      credentialed.flatMap((route) => [
        attempt(
          `${route} with A's token on B's host`,
          onHostOfB(route, pathFor(route, b), { authorization: `Bearer ${a.fixture.token}` }),
          401,
        ),
        attempt(
          `${route} with A's session on B's host`,
          onHostOfB(route, pathFor(route, b), {
            cookie: a.session.cookie,
            'x-csrf-token': a.session.csrfToken,
          }),
          401,
        ),
      ]),
    );
    expect({
      problems: problems.filter(Boolean),
      state: [await snapshotOf(r, a), await snapshotOf(r, b)],
    }).toEqual({ problems: [], state: before });
  });

  it("answers 404 for A's ids on B's host with B's credentials, and changes nothing", async () => {
    const before = [await snapshotOf(r, a), await snapshotOf(r, b)];
    const withIds = routes.filter((route) => route.includes(':'));
    const problems = await Promise.all(
      withIds.map((route) =>
        attempt(
          `${route} with A's id, B's credential`,
          onHostOfB(route, pathFor(route, a), credentialsFor(route, b)),
          404,
        ),
      ),
    );
    expect({
      problems: problems.filter(Boolean),
      state: [await snapshotOf(r, a), await snapshotOf(r, b)],
    }).toEqual({ problems: [], state: before });
  });

  it("answers 404 for A's inbound webhook token under B's host and stores nothing", async () => {
    const inbox = r.system.services['webhook-ingest']!.mongo.collection('webhook_events');
    const stored = () =>
      Promise.all([
        inbox.countDocuments({ tenant_id: a.fixture.tenant.id }),
        inbox.countDocuments({ tenant_id: b.fixture.tenant.id }),
      ]);
    const before = await stored();
    const problem = await attempt(
      "A's webhook token under B's host",
      httpCall(r.system.gatewayUrl, 'POST', a.webhookPath, {
        host: b.fixture.host,
        rawBody: JSON.stringify({ event: 'TRACKING_UPDATED', data: { number: 'X1' } }),
      }),
      404,
    );
    expect({ problem, stored: await stored() }).toEqual({ problem: undefined, stored: before });
  });

  it("refuses A's password on B's host (login 422) and keeps A's session working on A's host", async () => {
    const problem = await attempt(
      "A's email and password on B's host",
      httpCall(r.system.gatewayUrl, 'POST', '/auth/login', {
        host: b.fixture.host,
        body: { email: a.fixture.user.email, password: a.fixture.password },
      }),
      422,
    );
    expect(problem).toBeUndefined();
    expect((await a.session.request('GET', '/api/user')).status).toBe(200);
    expect((await a.fixture.request('GET', '/api/user')).status).toBe(200);
  });
});
