import { describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import { ROUTE_TABLE, methodOf, pathFor, send } from './harness.js';
import { ROUTES, isWrite, useHostileInput } from './hostile-suite.js';
import { snapshotOf } from './snapshot.js';

const UNKNOWN_HOSTS = ['nope.inventory.localhost', `${'a'.repeat(250)}.test`, '[::1]', 'x:99999'];
const NOISE = {
  accept: 'text/html',
  'x-forwarded-for': '::::, 999.1.1.1, <script>',
  'x-request-id': 'r'.repeat(2_000),
  cookie: 'session=%%%; other=;;=; x=""',
  'content-type': 'application/json',
};

describe('hostile credentials, hosts and headers on every route of the route table', () => {
  const suite = useHostileInput('credentials');

  it('refuses invalid credentials, unknown hosts and odd headers on every credentialed route', async () => {
    const { r, a, probes } = suite;
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
    const credentialed = ROUTES.filter((route) => ROUTE_TABLE[route]!.access !== 'public');
    for (const route of credentialed) {
      const write = isWrite(route);
      const body = write ? JSON.stringify({ name: 'renamed' }) : undefined;
      const sent = [
        ...badAuthorizations.map((authorization) =>
          probes.probe(
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
        ...UNKNOWN_HOSTS.map((host) =>
          probes.probe(
            `${route} [host ${host.slice(0, 24)}]`,
            () => send(r, a, route, { body, headers: { host } }),
            'refused',
          ),
        ),
        probes.probe(
          `${route} [odd headers, wrong secret]`,
          () =>
            httpCall(r.system.gatewayUrl, methodOf(route), pathFor(route, a), {
              host: a.fixture.host,
              rawBody: body,
              headers: { ...NOISE, authorization: `Bearer ${a.tokenId}|wrong-secret` },
            }),
          'refused',
        ),
      ];
      if (ROUTE_TABLE[route]!.access === 'session' && write)
        sent.push(
          probes.probe(
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
      problems.push(...(await probes.collect(sent)));
    }
    for (const route of ROUTES.filter((name) => !credentialed.includes(name)))
      problems.push(
        ...(await probes.collect([
          probes.probe(
            `${route} [odd headers]`,
            () => send(r, a, route, { headers: NOISE }),
            'any',
          ),
        ])),
      );
    expect({ problems, state: await snapshotOf(r, a) }).toEqual({ problems: [], state: before });
  });
});
