import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';
import type { ProviderSimHandle } from '../src/index.js';
import { OTHER_KEY, call, items, startSim } from './helpers.js';

const UPS = '1Z999AA10123456784';
const USPS = '9400111899223344556677';
const FEDEX = '123456789012';

describe('track API v2.2', () => {
  let sim: ProviderSimHandle;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim.stop());
  beforeEach(() => sim.reset());

  it('register accepts numbers, detects carriers and keeps the tag', async () => {
    const res = await call(sim, 'register', [
      { number: UPS, tag: 'order-1' },
      { number: USPS },
      { number: FEDEX },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.code).toBe(0);
    expect(res.json.data.rejected).toEqual([]);
    expect(res.json.data.accepted).toEqual([
      { origin: 1, number: UPS, carrier: 100002, tag: 'order-1' },
      { origin: 1, number: USPS, carrier: 21051, tag: null },
      { origin: 1, number: FEDEX, carrier: 100003, tag: null },
    ]);
  });

  it('register uses one quota unit per successful registration only', async () => {
    await call(sim, 'register', items(UPS, 'UNDETECTABLE0001'));
    await call(sim, 'register', items(UPS));
    const quota = await call(sim, 'getquota', {});
    expect(quota.status).toBe(200);
    expect(quota.json.code).toBe(0);
    expect(quota.json.data).toMatchObject({
      quota_total: 1000,
      quota_used: 1,
      quota_remain: 999,
      today_used: 1,
      max_track_daily: 10000,
    });
  });

  it('register rejects a number already registered with -18019901', async () => {
    await call(sim, 'register', items(UPS));
    const res = await call(sim, 'register', items(UPS));
    expect(res.json.code).toBe(0);
    expect(res.json.data.accepted).toEqual([]);
    expect(res.json.data.rejected[0]).toMatchObject({
      number: UPS,
      error: { code: ErrorCode.AlreadyRegistered },
    });
  });

  it('keeps accounts apart: another key can register the same number', async () => {
    await call(sim, 'register', items(UPS));
    const res = await call(sim, 'register', items(UPS), OTHER_KEY);
    expect(res.json.data.accepted).toHaveLength(1);
  });

  it('rejects UNDETECTABLE numbers with -18019903 unless a carrier is given, and unknown carriers with -18019910', async () => {
    const res = await call(sim, 'register', [
      { number: 'UNDETECTABLE0001' },
      { number: 'UNDETECTABLE0002', carrier: 100003 },
      { number: 'ABCDE12345', carrier: 424242 },
    ]);
    expect(res.json.data.rejected).toEqual([
      { number: 'UNDETECTABLE0001', error: { code: -18019903, message: expect.any(String) } },
      {
        number: 'ABCDE12345',
        error: { code: -18019910, message: expect.stringContaining('424242') },
      },
    ]);
    expect(res.json.data.accepted).toEqual([
      { origin: 1, number: 'UNDETECTABLE0002', carrier: 100003, tag: null },
    ]);
  });

  it('rejects registrations past max_track_daily with -18019907', async () => {
    sim.addKey({ key: 'daily_key_123', maxTrackDaily: 2 });
    const res = await call(
      sim,
      'register',
      items('DAILY00001', 'DAILY00002', 'DAILY00003'),
      'daily_key_123',
    );
    expect(res.json.data.accepted.map((a: { number: string }) => a.number)).toEqual([
      'DAILY00001',
      'DAILY00002',
    ]);
    expect(res.json.data.rejected).toEqual([
      { number: 'DAILY00003', error: { code: -18019907, message: expect.any(String) } },
    ]);
  });

  it('rejects registrations with -18019908 once the quota is used up', async () => {
    sim.addKey({ key: 'small_key_123', quotaTotal: 1 });
    const res = await call(sim, 'register', items('QUOTA00001', 'QUOTA00002'), 'small_key_123');
    expect(res.json.data.accepted).toHaveLength(1);
    expect(res.json.data.rejected[0].error.code).toBe(ErrorCode.QuotaExhausted);
    const quota = await call(sim, 'getquota', {}, 'small_key_123');
    expect(quota.json.data).toMatchObject({ quota_total: 1, quota_used: 1, quota_remain: 0 });
  });

  it('rejects a whole call of more than 40 numbers with -18010014', async () => {
    const many = Array.from({ length: 41 }, (_, i) => ({
      number: `BULK${String(i).padStart(6, '0')}`,
    }));
    for (const endpoint of ['register', 'gettrackinfo', 'stoptrack']) {
      const res = await call(sim, endpoint, many);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        code: -18010014,
        data: { errors: [{ code: -18010014, message: expect.stringContaining('40') }] },
      });
    }
    const quota = await call(sim, 'getquota', {});
    expect(quota.json.data.quota_used).toBe(0);
    const forty = await call(sim, 'register', many.slice(0, 40));
    expect(forty.json.data.accepted).toHaveLength(40);
  });

  it('gettrackinfo returns track_info in the v2.2 shape, and rejects unknown numbers with -18019902', async () => {
    await call(sim, 'register', [{ number: UPS, tag: 'order-7' }]);
    const res = await call(sim, 'gettrackinfo', [
      { number: UPS, carrier: 100002 },
      { number: 'NOTREG0001' },
    ]);
    expect(res.json.code).toBe(0);
    expect(res.json.data.rejected).toEqual([
      { number: 'NOTREG0001', error: { code: -18019902, message: expect.any(String) } },
    ]);
    const [item] = res.json.data.accepted;
    expect(item).toMatchObject({ number: UPS, carrier: 100002, tag: 'order-7', param: null });
    const info = item.track_info;
    expect(info.latest_status).toEqual({
      status: 'NotFound',
      sub_status: 'NotFound_Other',
      sub_status_descr: null,
    });
    expect(info.latest_event).toBeNull();
    expect(info.time_metrics).toMatchObject({
      days_after_order: 0,
      days_of_transit: 0,
      estimated_delivery_date: { source: null, from: null, to: null },
    });
    expect(info.milestone.map((m: { key_stage: string }) => m.key_stage)).toEqual([
      'InfoReceived',
      'PickedUp',
      'Departure',
      'Arrival',
      'AvailableForPickup',
      'OutForDelivery',
      'Delivered',
      'Returning',
      'Returned',
    ]);
    expect(info.tracking.providers[0].provider).toMatchObject({ key: 100002, name: 'UPS' });
    expect(info.tracking.providers[0].events).toEqual([]);
  });

  it('stoptrack, retrack and deletetrack follow the provider rules', async () => {
    await call(sim, 'register', items(UPS, USPS));
    const stop = await call(sim, 'stoptrack', items(UPS, 'NOTREG0001'));
    expect(stop.json.data.accepted).toEqual([{ number: UPS, carrier: 100002 }]);
    expect(stop.json.data.rejected[0]).toMatchObject({
      number: 'NOTREG0001',
      error: { code: -18019902 },
    });
    expect((await call(sim, 'stoptrack', items(UPS))).json.data.rejected[0].error.code).toBe(
      -18019906,
    );

    expect((await call(sim, 'retrack', items(USPS))).json.data.rejected[0].error.code).toBe(
      -18019904,
    );
    const retrack = await call(sim, 'retrack', items(UPS));
    expect(retrack.json.data.accepted).toEqual([{ number: UPS, carrier: 100002 }]);
    await call(sim, 'stoptrack', items(UPS));
    expect((await call(sim, 'retrack', items(UPS))).json.data.rejected[0].error.code).toBe(
      -18019905,
    );

    const del = await call(sim, 'deletetrack', items(UPS, 'NOTREG0001'));
    expect(del.json.data.accepted).toEqual([{ number: UPS, carrier: 100002 }]);
    expect(del.json.data.rejected[0].error.code).toBe(-18019902);
    expect((await call(sim, 'gettrackinfo', items(UPS))).json.data.rejected[0].error.code).toBe(
      -18019902,
    );
    const again = await call(sim, 'register', items(UPS));
    expect(again.json.data.accepted).toHaveLength(1);
    expect((await call(sim, 'getquota', {})).json.data.quota_used).toBe(3);
  });

  it('answers an unknown endpoint with 404', async () => {
    const res = await call(sim, 'changecarrier', items(UPS));
    expect(res.status).toBe(404);
    expect(res.json.code).not.toBe(0);
  });
});
