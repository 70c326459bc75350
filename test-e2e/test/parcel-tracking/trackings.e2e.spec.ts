import { nextSequence } from '@inventory/platform';
import { TRACKINGS_MAX_PER_PAGE } from '@inventory/rules';
import { describe, expect, it } from 'vitest';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import { PREFIX } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

const FIELDS = [
  'id',
  'trackable_type',
  'trackable_id',
  'trackable_label',
  'trackable_url',
  'tracking_number',
  'carrier_code',
  'carrier_name',
  'delivery_status',
  'delivery_status_label',
  'delivery_status_color',
  'sub_status',
  'latest_event_description',
  'latest_event_location',
  'last_event_at',
  'estimated_delivery_at',
  'delivered_at',
  'picked_up_at',
  'registered_at',
  'registration_error',
  'stopped_at',
  'created_at',
];

const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

/** The fields parcel-tracking stores on a tracking row that the seeded rows below leave at rest. */
const AT_REST = {
  sub_status: null,
  latest_event_description: null,
  latest_event_location: null,
  estimated_delivery_at: null,
  picked_up_at: null,
  registration_error: null,
  registration_failed_at: null,
  stopped_at: null,
  active: true,
  sales_channel_id: null,
  sub_channel_id: null,
  lease_owner: null,
  lease_until: null,
  registration_attempts: 0,
  next_attempt_at: null,
  delivery_effects_at: null,
  last_webhook_event_id: null,
  last_status_from: null,
  revision: 0,
};

/**
 * Six rows with known statuses, carriers, types and dates, written into parcel-tracking's
 * `tracking_rows` collection as the service stores them (ids from its counter).
 */
async function seeded(): Promise<{ t: TenantFixture; id: number; url: string }> {
  const { t, instance } = await suite.connected();
  const mongo = suite.p.system.services['parcel-tracking']!.mongo;
  const base = {
    ...AT_REST,
    tenant_id: t.tenant.id,
    integration_instance_id: instance.id,
    trackable_label: 'Label',
    trackable_url: '/x/1',
  };
  const rows = [
    [
      '1Z999AA10123456784',
      'sales_order_fulfillment',
      'in_transit',
      100002,
      '2026-01-01',
      '2026-01-03',
    ],
    [
      '1Z999AA10123456785',
      'sales_order_fulfillment',
      'delivered',
      100002,
      '2026-01-02',
      '2026-01-02',
    ],
    ['JJD0123456789', 'inbound_shipment', 'delivered', 190271, '2026-01-02', '2026-01-05'],
    ['XX123456789GB', 'rma', 'exception', 11031, '2026-01-03', null],
    ['92001901755477000000000011', 'vendor_credit_shipment', 'pending', null, '2026-01-04', null],
    ['A.B*C+1', 'warehouse_transfer_shipment', 'not_found', 3011, '2026-01-05', '2026-01-01'],
  ] as const;
  for (const [index, [number, type, status, carrier, created, event]] of rows.entries())
    await mongo.collection('tracking_rows').insertOne({
      ...base,
      id: await nextSequence(mongo, 'tracking_rows'),
      updated_at: new Date(),
      trackable_type: type,
      trackable_id: index + 1,
      tracking_number: number,
      delivery_status: status,
      carrier_code: carrier,
      carrier_name: carrier ? `Carrier ${carrier}` : null,
      created_at: day(created),
      last_event_at: event ? day(event) : null,
      delivered_at: status === 'delivered' && event ? day(event) : null,
      // Registered, polled and settled at the provider: the background workers leave them be.
      registered_at: day(created),
      last_polled_at: new Date(Date.now() + 24 * 3600_000),
      provider_stopped_at: day(created),
    });
  return { t, id: instance.id, url: `${PREFIX}/instances/${instance.id}/trackings` };
}

const numbers = (body: { data: Array<{ tracking_number: string }> }) =>
  body.data.map((row) => row.tracking_number);

describe('GET /instances/{id}/trackings', () => {
  it('answers the links/meta envelope with exactly the row fields, status label and colour', async () => {
    const { t, url } = await seeded();
    const response = await t.request('GET', `${url}?per_page=4`);
    expect(response.status).toBe(200);
    const { data, links, meta } = response.body;
    expect(data).toHaveLength(4);
    expect(Object.keys(data[0])).toEqual(FIELDS);
    // Default sort: -created_at, ties by id descending.
    expect(numbers(response.body)).toEqual([
      'A.B*C+1',
      '92001901755477000000000011',
      'XX123456789GB',
      'JJD0123456789',
    ]);
    expect(data[3]).toMatchObject({
      trackable_type: 'inbound_shipment',
      trackable_url: '/x/1',
      delivery_status: 'delivered',
      delivery_status_label: 'Delivered',
      delivery_status_color: 'green',
      carrier_code: 190271,
      created_at: '2026-01-02T12:00:00.000Z',
    });
    expect(meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      per_page: 4,
      to: 4,
      total: 6,
      path: `${t.baseUrl}${url}`,
    });
    expect(links.prev).toBeNull();
    expect(links.first).toBe(`${t.baseUrl}${url}?per_page=4&page=1`);
    expect(links.next).toBe(`${t.baseUrl}${url}?per_page=4&page=2`);
    const second = await t.request('GET', `${url}?per_page=4&page=2`);
    expect(second.body.meta).toMatchObject({ from: 5, to: 6, current_page: 2 });
    expect(second.body.links.next).toBeNull();
  });

  it('takes per_page above the advised 100 up to the one maximum (no hard maximum in the spec)', async () => {
    const { t, url } = await seeded();
    for (const perPage of [101, TRACKINGS_MAX_PER_PAGE]) {
      const response = await t.request('GET', `${url}?per_page=${perPage}`);
      expect(response.status, `per_page=${perPage}`).toBe(200);
      expect(response.body.meta).toMatchObject({ per_page: perPage, total: 6, last_page: 1 });
      expect(response.body.data).toHaveLength(6);
    }
  });

  it('filters by search (substring, regex characters literal), statuses, carriers, types (slug or type name) and inclusive dates', async () => {
    const { t, url } = await seeded();
    const get = async (query: string) => {
      const response = await t.request('GET', `${url}?${query}`);
      expect(response.status).toBe(200);
      return numbers(response.body).sort();
    };
    expect(await get('filter[search]=999aa1012345678')).toEqual([
      '1Z999AA10123456784',
      '1Z999AA10123456785',
    ]);
    expect(await get(`filter[search]=${encodeURIComponent('B*C+')}`)).toEqual(['A.B*C+1']);
    expect(await get(`filter[search]=${encodeURIComponent('1Z.*')}`)).toEqual([]);
    expect(await get('filter[delivery_status]=delivered,exception')).toEqual([
      '1Z999AA10123456785',
      'JJD0123456789',
      'XX123456789GB',
    ]);
    expect(await get('filter[carrier_code]=100002, 3011')).toEqual([
      '1Z999AA10123456784',
      '1Z999AA10123456785',
      'A.B*C+1',
    ]);
    expect(
      await get(`filter[trackable_type]=rma,${encodeURIComponent('App\\Models\\InboundShipment')}`),
    ).toEqual(['JJD0123456789', 'XX123456789GB']);
    expect(
      await get(
        `filter[date_from]=${encodeURIComponent('01/02/2026')}&filter[date_to]=${encodeURIComponent('01/03/2026')}`,
      ),
    ).toEqual(['1Z999AA10123456785', 'JJD0123456789', 'XX123456789GB']);
    expect(
      await get('filter[delivery_status]=delivered&filter[trackable_type]=inbound_shipment'),
    ).toEqual(['JJD0123456789']);
  });

  it('sorts by created_at, last_event_at, delivered_at both ways, ties broken by id', async () => {
    const { t, url } = await seeded();
    const order = async (sort: string) =>
      numbers((await t.request('GET', `${url}?sort=${sort}`)).body);
    expect(await order('created_at')).toEqual([
      '1Z999AA10123456784',
      '1Z999AA10123456785',
      'JJD0123456789',
      'XX123456789GB',
      '92001901755477000000000011',
      'A.B*C+1',
    ]);
    expect((await order('-last_event_at')).slice(0, 4)).toEqual([
      'JJD0123456789',
      '1Z999AA10123456784',
      '1Z999AA10123456785',
      'A.B*C+1',
    ]);
    expect((await order('-delivered_at')).slice(0, 2)).toEqual([
      'JJD0123456789',
      '1Z999AA10123456785',
    ]);
    expect((await order('delivered_at')).slice(-2)).toEqual([
      '1Z999AA10123456785',
      'JJD0123456789',
    ]);
  });

  it('keeps every filter and sort in the page URLs; per_page=1 sizes the result', async () => {
    const { t, url } = await seeded();
    const query = `filter%5Bdelivery_status%5D=delivered%2Cin_transit&sort=-last_event_at&per_page=1`;
    const response = await t.request('GET', `${url}?${query}`);
    expect(response.body.meta.total).toBe(3);
    expect(response.body.data).toHaveLength(1);
    for (const link of [
      response.body.links.first,
      response.body.links.next,
      response.body.links.last,
    ]) {
      const params = new URL(link).searchParams;
      expect(params.get('filter[delivery_status]')).toBe('delivered,in_transit');
      expect(params.get('sort')).toBe('-last_event_at');
      expect(params.get('per_page')).toBe('1');
    }
    expect(new URL(response.body.links.last).searchParams.get('page')).toBe('3');
  });

  it.each([
    ['filter[delivery_status]=delivered,shipped', 'filter.delivery_status'],
    ['filter[carrier_code]=ups', 'filter.carrier_code'],
    ['filter[trackable_type]=invoice', 'filter.trackable_type'],
    ['filter[date_from]=2026-01-01', 'filter.date_from'],
    ['filter[date_to]=02/30/2026', 'filter.date_to'],
    ['sort=id', 'sort'],
    ['sort=-tracking_number', 'sort'],
    [`per_page=${TRACKINGS_MAX_PER_PAGE + 1}`, 'per_page'],
    ['per_page=0', 'per_page'],
    ['page=abc', 'page'],
    [`filter[search]=${'x'.repeat(256)}`, 'filter.search'],
    ['filter[search]=a&filter[search]=b', 'filter.search'],
  ])('422 naming the field for %s', async (query, field) => {
    const { t, url } = await seeded();
    const response = await t.request('GET', `${url}?${query}`);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual([field]);
    expect(typeof response.body.message).toBe('string');
  });

  it("404 for an unknown id, a non-numeric id and another tenant's instance; rows never cross tenants", async () => {
    const { t, id, url } = await seeded();
    const other = await suite.connected();
    expect((await t.request('GET', `${PREFIX}/instances/999999/trackings`)).status).toBe(404);
    expect((await t.request('GET', `${PREFIX}/instances/abc/trackings`)).status).toBe(404);
    const foreign = await other.t.request('GET', url);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors.url[0].code).toBe('NotFound');
    expect((await other.t.request('GET', `${url}?sort=bogus`)).status).toBe(404);
    const own = await other.t.request('GET', `${PREFIX}/instances/${other.instance.id}/trackings`);
    expect(own.body.meta.total).toBe(0);
    expect(id).not.toBe(other.instance.id);
  });
});
