import type { GatewayHandle } from '@inventory/gateway';
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
import { startFreezableRelay } from './relay.js';

/**
 * Issue #18 item 6: a frozen parcel-tracking or activity must not hold requests until their
 * deadline. A second gateway reaches both through relays the test freezes, with a 120 s gRPC
 * deadline: a JSON 503 within this test's 60 s timeout can only come from the keepalive and
 * the connection gate, not from the deadline.
 */
describe('gateway with a frozen parcel-tracking and activity', () => {
  let r: ResilienceSystem;
  let t: PopulatedTenant;
  let gateway: GatewayHandle;
  let parcelRelay: Awaited<ReturnType<typeof startFreezableRelay>>;
  let activityRelay: Awaited<ReturnType<typeof startFreezableRelay>>;

  beforeAll(async () => {
    r = await startResilienceSystem();
    t = await populatedTenant(r);
    parcelRelay = await startFreezableRelay(r.system.services['parcel-tracking']!.grpc!.address);
    activityRelay = await startFreezableRelay(r.system.services.activity!.grpc!.address);
    gateway = await startSecondGateway(r.system, {
      PARCEL_TRACKING_GRPC_ADDRESS: parcelRelay.address,
      ACTIVITY_GRPC_ADDRESS: activityRelay.address,
      GRPC_DEADLINE_MS: '120000',
    });
  }, 120_000);
  afterAll(async () => {
    await gateway?.stop();
    await parcelRelay?.close();
    await activityRelay?.close();
    await r?.stop();
  });

  const get = (path: string): Promise<HttpResponse> =>
    httpCall(gateway.url, 'GET', path, {
      host: t.fixture.host,
      headers: { authorization: `Bearer ${t.fixture.token}` },
    });
  const channels = () => get(`${PARCEL}/instances/${t.instanceId}/trackable-channels`);
  const activity = () => get(`${PARCEL}/instances/${t.instanceId}/activity`);

  it('answers JSON 503s while parcel-tracking is frozen (in flight and after), and 200 after the thaw', async () => {
    expect((await channels()).status).toBe(200);
    parcelRelay.freeze();
    let answers: HttpResponse[];
    try {
      answers = [await channels(), await channels()];
    } finally {
      parcelRelay.thaw();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      // The call in flight fails on the missed ping; the next one at once, at the connection gate.
      expect(answer.body).toMatchObject({
        message: expect.any(String),
        code: expect.stringMatching(/^(service_unavailable|unreachable)$/),
      });
    }
    const back = await pollUntil(async () => {
      const answer = await channels();
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(back?.status).toBe(200);
  });

  it('answers JSON 503s while activity is frozen, and 200 after the thaw', async () => {
    expect((await activity()).status).toBe(200);
    activityRelay.freeze();
    let answers: HttpResponse[];
    try {
      answers = [await activity(), await activity()];
    } finally {
      activityRelay.thaw();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      // The call in flight fails on the missed ping; the next one at once, at the connection gate.
      expect(answer.body).toMatchObject({
        message: expect.any(String),
        code: expect.stringMatching(/^(service_unavailable|unreachable)$/),
      });
    }
    const back = await pollUntil(async () => {
      const answer = await activity();
      return answer.status === 200 ? answer : undefined;
    }, 30_000);
    expect(back?.status).toBe(200);
  });
});
