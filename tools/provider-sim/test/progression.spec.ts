import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderSimHandle } from '../src/index.js';
import { admin, call, items, startSim } from './helpers.js';

const N = '1Z999AA10123456784';

async function info(sim: ProviderSimHandle, number: string) {
  const res = await call(sim, 'gettrackinfo', items(number));
  return res.json.data.accepted[0].track_info;
}

describe('scripted progressions', () => {
  let sim: ProviderSimHandle;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.reset());

  it('advances NotFound → InfoReceived → InTransit_PickedUp → OutForDelivery → Delivered', async () => {
    await call(sim, 'register', items(N));
    const seen: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await admin(sim, 'POST', `/trackings/${N}/advance`);
      expect(res.status).toBe(200);
      expect(res.json.changed).toBe(true);
      const ti = await info(sim, N);
      seen.push(ti.latest_status.sub_status);
      expect(ti.latest_event.sub_status).toBe(ti.latest_status.sub_status);
      expect(ti.latest_event.time_utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(ti.latest_event.time_iso).toMatch(/-05:00$/);
      expect(ti.tracking.providers[0].events).toHaveLength(i + 1);
    }
    expect(seen).toEqual([
      'InfoReceived',
      'InTransit_PickedUp',
      'OutForDelivery_Other',
      'Delivered_Other',
    ]);
    const ti = await info(sim, N);
    expect(ti.latest_status.status).toBe('Delivered');
    const reached = ti.milestone.filter((m: { time_utc: string | null }) => m.time_utc !== null);
    expect(reached.map((m: { key_stage: string }) => m.key_stage)).toEqual([
      'InfoReceived',
      'PickedUp',
      'OutForDelivery',
      'Delivered',
    ]);
    expect(ti.time_metrics.estimated_delivery_date.source).toBe('17TRACK');
    expect(ti.time_metrics.estimated_delivery_date.from).toEqual(expect.any(String));

    const end = await admin(sim, 'POST', `/trackings/${N}/advance`);
    expect(end.status).toBe(409);
    expect(sim.advance(N).changed).toBe(false);
  });

  it('sets an estimated delivery window two to four days out when picked up', async () => {
    await call(sim, 'register', items(N));
    sim.advance(N);
    sim.advance(N);
    const eta = (await info(sim, N)).time_metrics.estimated_delivery_date;
    const days = (iso: string) => (Date.parse(iso) - Date.now()) / 86_400_000;
    expect(days(eta.from)).toBeGreaterThan(1.9);
    expect(days(eta.to)).toBeGreaterThan(3.9);
    expect(days(eta.to)).toBeLessThan(4.1);
  });

  it.each([
    [
      'EXC0000001',
      ['InfoReceived', 'InTransit_PickedUp', 'Exception_Returning', 'Exception_Returned'],
    ],
    [
      'FAIL000001',
      ['InfoReceived', 'InTransit_PickedUp', 'OutForDelivery_Other', 'DeliveryFailure_Other'],
    ],
    [
      'PICKUP0001',
      ['InfoReceived', 'InTransit_PickedUp', 'AvailableForPickup_Other', 'Delivered_Other'],
    ],
    ['EXPIRE0001', ['InfoReceived', 'Expired_Other']],
  ])('follows the script chosen by the prefix of %s', async (number, expected) => {
    await call(sim, 'register', items(number));
    const seen: string[] = [];
    while (sim.advance(number).changed)
      seen.push((await info(sim, number)).latest_status.sub_status);
    expect(seen).toEqual(expected);
  });

  it('sets any status on demand and validates it', async () => {
    await call(sim, 'register', items(N));
    const res = await admin(sim, 'POST', `/trackings/${N}/status`, {
      status: 'Exception',
      sub_status: 'Exception_Lost',
    });
    expect(res.status).toBe(200);
    expect(res.json.trackings[0]).toMatchObject({
      status: 'Exception',
      sub_status: 'Exception_Lost',
    });
    const ti = await info(sim, N);
    expect(ti.latest_status).toMatchObject({ status: 'Exception', sub_status: 'Exception_Lost' });
    expect(ti.latest_event.sub_status).toBe('Exception_Lost');

    sim.setStatus(N, 'DeliveryFailure');
    expect((await info(sim, N)).latest_status.sub_status).toBe('DeliveryFailure_Other');

    const bad = await admin(sim, 'POST', `/trackings/${N}/status`, {
      status: 'InTransit',
      sub_status: 'Delivered_Other',
    });
    expect(bad.status).toBe(400);
    const unknown = await admin(sim, 'POST', `/trackings/${N}/status`, { status: 'Teleported' });
    expect(unknown.status).toBe(400);
  });

  it('answers 404 for numbers nobody registered', async () => {
    const res = await admin(sim, 'POST', '/trackings/NOPE000001/advance');
    expect(res.status).toBe(404);
    expect(res.json.error).toContain('NOPE000001');
    expect(() => sim.setStatus('NOPE000001', 'Delivered')).toThrow(/not registered/);
  });

  it('lists trackings and resets everything', async () => {
    await call(sim, 'register', [{ number: N, tag: 'order-9' }]);
    const list = await admin(sim, 'GET', '/trackings');
    expect(list.json.trackings).toHaveLength(1);
    expect(list.json.trackings[0]).toMatchObject({
      number: N,
      carrier: 100002,
      carrier_name: 'UPS',
      tag: 'order-9',
      status: 'NotFound',
      tracking_state: 'Tracking',
    });
    expect((await admin(sim, 'POST', '/reset')).json).toEqual({ ok: true });
    expect((await admin(sim, 'GET', '/trackings')).json.trackings).toEqual([]);
    expect((await call(sim, 'getquota', {})).json.data.quota_used).toBe(0);
  });
});
