import { describe, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import { ROUTE_TABLE, methodOf, pathFor, send } from './harness.js';
import { ROUTES, isWrite, useHostileInput } from './hostile-suite.js';

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

  it('refuses invalid credentials, unknown hosts and odd headers on every credentialed route', () => {
    const { r, a, probes } = suite;
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
      `Bearer ${a.tokenId}|wrong-secret`,
      'Bearer a b c',
    ];
    /** The route on the tenant's host with these headers instead of the route's credential. */
    const bare = (route: string, body: string | undefined, headers: Record<string, string>) => () =>
      httpCall(r.system.gatewayUrl, methodOf(route), pathFor(route, a), {
        host: a.fixture.host,
        rawBody: body,
        headers,
      });
    const credentialed = ROUTES.filter((route) => ROUTE_TABLE[route]!.access !== 'public');
    const uncredentialed = ROUTES.filter((route) => !credentialed.includes(route));
    return suite.withoutWriting(async () => [
      ...(await probes.perRoute(credentialed, (route) => {
        const write = isWrite(route);
        const body = write ? JSON.stringify({ name: 'renamed' }) : undefined;
        const sent = [
          ...badAuthorizations.map((authorization) =>
            probes.probe(
              `${route} [authorization ${authorization.slice(0, 24)}]`,
              bare(route, body, authorization ? { authorization } : {}),
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
            bare(route, body, { ...NOISE, authorization: `Bearer ${a.tokenId}|wrong-secret` }),
            'refused',
          ),
        ];
        if (ROUTE_TABLE[route]!.access === 'session' && write)
          sent.push(
            probes.probe(
              `${route} [session without CSRF header]`,
              bare(route, body, { cookie: a.session.cookie }),
              'refused',
            ),
          );
        return sent;
      })),
      ...(await probes.perRoute(uncredentialed, (route) => [
        probes.probe(`${route} [odd headers]`, () => send(r, a, route, { headers: NOISE }), 'any'),
      ])),
    ]);
  });
});
