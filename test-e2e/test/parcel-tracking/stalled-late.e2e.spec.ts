import { eventually } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { loginSession } from '../../src/index.js';
import { PREFIX, seedPendingRows } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();
const HOUR = 3600_000;

describe('stalled and late shipments through the gateway (ADR 0218)', () => {
  it('filters the trackings list by filter[stalled] and filter[late], counts both on the dashboard, refuses a bad flag', async () => {
    const { t, instance } = await suite.connected();
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    const shape: Record<string, Record<string, unknown>> = {
      E2ESTALLED1: { delivery_status: 'in_transit', last_event_at: ago(100) },
      E2EMOVING01: { delivery_status: 'in_transit', last_event_at: ago(1) },
      E2ELATE0001: { delivery_status: 'out_for_delivery', estimated_delivery_at: ago(30) },
    };
    await seedPendingRows(suite.p, t, instance.id, Object.keys(shape));
    const rows = suite.p.system.services['parcel-tracking']!.mongo.collection('tracking_rows');
    for (const [number, fields] of Object.entries(shape))
      await rows.updateOne({ tenant_id: t.tenant.id, tracking_number: number }, { $set: fields });

    const numbers = async (query: string) => {
      const answer = await t.request(
        'GET',
        `${PREFIX}/instances/${instance.id}/trackings?${query}`,
      );
      expect(answer.status, query).toBe(200);
      return answer.body.data.map((row: { tracking_number: string }) => row.tracking_number);
    };
    expect(await numbers('filter[stalled]=true')).toEqual(['E2ESTALLED1']);
    expect(await numbers('filter[late]=1')).toEqual(['E2ELATE0001']);
    expect(await numbers('filter[late]=0')).toHaveLength(3);
    const page = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/trackings?filter[stalled]=true&per_page=1`,
    );
    // The filter is kept in the page links, as every other filter.
    expect(page.body.links.first).toContain('filter%5Bstalled%5D=true');

    const bad = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/trackings?filter[stalled]=maybe`,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['filter.stalled']);

    const dashboard = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(dashboard.body.data).toMatchObject({ stalled_count: 1, late_count: 1 });
  });
});

describe('the shipment watch settings and alerts through the gateway (ADR 0218)', () => {
  const WATCH_DEFAULTS = {
    stalled_after_hours: 72,
    carrier_stalled_after_hours: [],
    stalled_alert: true,
    late_alert: true,
  };

  it('PATCH sets the thresholds and switches, GET and the list answer with them, the stalled filter follows the carrier', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    expect((await t.request('GET', url)).body.data.shipment_watch).toEqual(WATCH_DEFAULTS);
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    await seedPendingRows(suite.p, t, instance.id, ['E2EUPS30H01', 'E2EDHL30H01']);
    const rows = suite.p.system.services['parcel-tracking']!.mongo.collection('tracking_rows');
    for (const [number, carrier] of [
      ['E2EUPS30H01', 100002],
      ['E2EDHL30H01', 100001],
    ] as const)
      await rows.updateOne(
        { tenant_id: t.tenant.id, tracking_number: number },
        { $set: { delivery_status: 'in_transit', carrier_code: carrier, last_event_at: ago(30) } },
      );
    const stalled = async () =>
      (await t.request('GET', `${url}/trackings?filter[stalled]=true`)).body.data.map(
        (row: { tracking_number: string }) => row.tracking_number,
      );
    expect(await stalled()).toEqual([]);

    const patched = await t.request('PATCH', url, {
      shipment_watch: {
        carrier_stalled_after_hours: [{ carrier_code: 100002, hours: 24 }],
        late_alert: false,
      },
    });
    expect(patched.status).toBe(200);
    const watch = {
      ...WATCH_DEFAULTS,
      carrier_stalled_after_hours: [{ carrier_code: 100002, hours: 24 }],
      late_alert: false,
    };
    expect(patched.body.data.shipment_watch).toEqual(watch);
    expect((await t.request('GET', url)).body.data).toMatchObject({
      shipment_watch: watch,
      stalled_count: 1,
    });
    const [listed] = (await t.request('GET', `${PREFIX}/instances`)).body.data;
    expect(listed.shipment_watch).toEqual(watch);
    expect(await stalled()).toEqual(['E2EUPS30H01']);
    // The spec's side_effects keep exactly their three switches.
    expect(Object.keys(patched.body.data.side_effects)).toHaveLength(3);
  });

  it('422 names each bad watch field, applies nothing, and refuses a __proto__ key', async () => {
    const { t, instance } = await suite.connected();
    const url = `${PREFIX}/instances/${instance.id}`;
    const cases: Array<[unknown, string[]]> = [
      ['often', ['shipment_watch']],
      [{ stalled_after_hours: '48' }, ['shipment_watch.stalled_after_hours']],
      [{ stalled_after_hours: 0 }, ['shipment_watch.stalled_after_hours']],
      [{ stalled_after_hours: 721 }, ['shipment_watch.stalled_after_hours']],
      [{ stalled_after_hours: 1.5 }, ['shipment_watch.stalled_after_hours']],
      [{ stalled_alert: 'yes' }, ['shipment_watch.stalled_alert']],
      [
        { carrier_stalled_after_hours: { 100002: 24 } },
        ['shipment_watch.carrier_stalled_after_hours'],
      ],
      [
        { carrier_stalled_after_hours: [{ carrier_code: 'ups', hours: 24 }, 'x'] },
        [
          'shipment_watch.carrier_stalled_after_hours.0.carrier_code',
          'shipment_watch.carrier_stalled_after_hours.1',
        ],
      ],
      [
        { carrier_stalled_after_hours: [{ hours: 24 }] },
        ['shipment_watch.carrier_stalled_after_hours.0.carrier_code'],
      ],
      [
        {
          carrier_stalled_after_hours: [
            { carrier_code: 7, hours: 24 },
            { carrier_code: 7, hours: 0 },
          ],
        },
        [
          'shipment_watch.carrier_stalled_after_hours.1.carrier_code',
          'shipment_watch.carrier_stalled_after_hours.1.hours',
        ],
      ],
      [
        {
          carrier_stalled_after_hours: Array.from({ length: 51 }, (_, i) => ({
            carrier_code: i + 1,
            hours: 24,
          })),
        },
        ['shipment_watch.carrier_stalled_after_hours'],
      ],
    ];
    for (const [shipment_watch, fields] of cases) {
      const response = await t.request('PATCH', url, { shipment_watch, name: 'Not applied' });
      expect(response.status, JSON.stringify(shipment_watch).slice(0, 80)).toBe(422);
      expect(Object.keys(response.body.errors).sort()).toEqual([...fields].sort());
    }
    const unchanged = (await t.request('GET', url)).body.data;
    expect(unchanged).toMatchObject({ name: 'Parcel tracking', shipment_watch: WATCH_DEFAULTS });

    // The JSON parser refuses a __proto__ key anywhere in a body (secure-json-parse).
    const proto = await t.request(
      'PATCH',
      url,
      JSON.parse(
        '{"shipment_watch": {"__proto__": {"late_alert": false}, "stalled_after_hours": 96}}',
      ),
    );
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({
      message: 'The request body is not valid JSON.',
      code: 'malformed_json',
    });
    expect((await t.request('GET', url)).body.data.shipment_watch).toEqual(WATCH_DEFAULTS);
  });

  it('raises one in-app alert for a stalled and one for a late shipment, however often the sweep runs', async () => {
    const { t, instance } = await suite.connected();
    const session = await loginSession(t, suite.p.system.gatewayUrl);
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    await seedPendingRows(suite.p, t, instance.id, ['E2EALERTST1', 'E2EALERTLT1']);
    const rows = suite.p.system.services['parcel-tracking']!.mongo.collection('tracking_rows');
    await rows.updateOne(
      { tenant_id: t.tenant.id, tracking_number: 'E2EALERTST1' },
      { $set: { delivery_status: 'in_transit', last_event_at: ago(100) } },
    );
    await rows.updateOne(
      { tenant_id: t.tenant.id, tracking_number: 'E2EALERTLT1' },
      {
        $set: {
          delivery_status: 'in_transit',
          last_event_at: ago(1),
          estimated_delivery_at: ago(5),
        },
      },
    );
    const alerts = await eventually(async () => {
      const response = await session.request('GET', '/api/alerts?per_page=100');
      expect(response.body.total).toBe(2);
      return response.body.data as Array<{ kind: string; message: string }>;
    }, 'the watch sweep to raise both alerts');
    expect(alerts.map((alert) => alert.kind).sort()).toEqual(['shipment_late', 'shipment_stalled']);
    expect(alerts.find((alert) => alert.kind === 'shipment_stalled')!.message).toContain(
      'E2EALERTST1',
    );
    // A shipment that stalls afterwards is alerted by a later pass, which repeats neither of
    // the first two.
    await seedPendingRows(suite.p, t, instance.id, ['E2EALERTST2']);
    await rows.updateOne(
      { tenant_id: t.tenant.id, tracking_number: 'E2EALERTST2' },
      { $set: { delivery_status: 'in_transit', last_event_at: ago(80) } },
    );
    const after = await eventually(async () => {
      const response = await session.request('GET', '/api/alerts?per_page=100');
      expect(response.body.total).toBeGreaterThanOrEqual(3);
      return response.body.data as Array<{ message: string }>;
    }, 'the third alert');
    expect(after).toHaveLength(3);
    expect(after.filter((alert) => alert.message.includes('E2EALERTST1'))).toHaveLength(1);
  });
});
