import type { GatewayHandle } from '@inventory/gateway';
import { startFreezableRelay, type FreezableRelay } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCall, type HttpResponse } from '../../src/fixtures/http.js';
import { startSecondGateway } from '../../src/fixtures/tenants.js';
import {
  PARCEL,
  pollUntil,
  populatedTenant,
  startResilienceSystem,
  type PopulatedTenant,
  type ResilienceSystem,
} from './harness.js';

const TOKENS = '/api/personal-access-tokens';

/**
 * Issue #18 item 6: a frozen parcel-tracking, activity or identity must not hold requests until
 * their deadline. A second gateway reaches them through relays the test freezes, with a 120 s
 * gRPC deadline: a JSON 503 within this test's 60 s timeout can only come from the gateway's
 * watch of each service (ADR 0744), the keepalive and the connection gate, not from the deadline.
 */
describe('gateway with a frozen parcel-tracking, activity or identity', () => {
  let r: ResilienceSystem;
  let t: PopulatedTenant;
  let gateway: GatewayHandle;
  let parcelRelay: FreezableRelay;
  let activityRelay: FreezableRelay;
  let identityRelay: FreezableRelay;

  beforeAll(async () => {
    r = await startResilienceSystem();
    t = await populatedTenant(r);
    parcelRelay = await startFreezableRelay(r.system.services['parcel-tracking']!.grpc!.address);
    activityRelay = await startFreezableRelay(r.system.services.activity!.grpc!.address);
    identityRelay = await startFreezableRelay(r.system.services.identity!.grpc!.address);
    gateway = await startSecondGateway(r.system, {
      PARCEL_TRACKING_GRPC_ADDRESS: parcelRelay.address,
      ACTIVITY_GRPC_ADDRESS: activityRelay.address,
      IDENTITY_GRPC_ADDRESS: identityRelay.address,
      GRPC_DEADLINE_MS: '120000',
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await parcelRelay?.close();
    await activityRelay?.close();
    await identityRelay?.close();
    await r?.stop();
  });

  // GET /api/user reaches identity on a miss of the gateway's user cache (ADR 0109): each probe
  // starts from an empty one, so it is a look-up on identity's stream that is probed.
  const currentUser = () => {
    gateway.auth.users.clear();
    return get('/api/user');
  };
  const get = (path: string): Promise<HttpResponse> =>
    httpCall(gateway.url, 'GET', path, {
      host: t.fixture.host,
      headers: { authorization: `Bearer ${t.fixture.token}` },
    });
  // Session routes check the session with identity on every request (a unary call).
  const tokens = () =>
    httpCall(gateway.url, 'GET', TOKENS, {
      host: t.fixture.host,
      headers: { cookie: t.session.cookie },
    });
  const channels = () => get(`${PARCEL}/instances/${t.instanceId}/trackable-channels`);
  const activity = () => get(`${PARCEL}/instances/${t.instanceId}/activity`);

  /** Each probe answers 200, then JSON 503s while `relay` is frozen (in flight and after), then 200. */
  async function outageAndRecovery(
    relay: FreezableRelay,
    probes: Array<() => Promise<HttpResponse>>,
  ) {
    for (const probe of probes) expect((await probe()).status).toBe(200);
    relay.freeze();
    const answers: HttpResponse[] = [];
    try {
      for (const probe of probes) answers.push(await probe(), await probe());
    } finally {
      relay.thaw();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      // The call in flight fails on the missed ping; the next one at once, at the connection gate.
      expect(answer.body).toMatchObject({
        message: expect.any(String),
        code: expect.stringMatching(/^(service_unavailable|unreachable|identity_unavailable)$/),
      });
    }
    for (const probe of probes) {
      const back = await pollUntil(async () => {
        const answer = await probe();
        return answer.status === 200 ? answer : undefined;
      }, 30_000);
      expect(back?.status).toBe(200);
    }
  }

  it('answers JSON 503s while parcel-tracking is frozen (in flight and after), and 200 after the thaw', async () => {
    await outageAndRecovery(parcelRelay, [channels]);
  });

  it('answers JSON 503s while activity is frozen, and 200 after the thaw', async () => {
    await outageAndRecovery(activityRelay, [activity]);
  });

  // GET /api/user reads the user over identity's StreamUsers stream; the token list makes unary calls.
  it('answers JSON 503s while identity is frozen (its user stream and unary calls), and 200 after the thaw', async () => {
    await outageAndRecovery(identityRelay, [currentUser, tokens]);
  });
});
