import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TenantFixture } from '../../src/fixtures/tenants.js';
import {
  GOOD_KEY,
  OTHER_KEY,
  PREFIX,
  startParcelSystem,
  validCreate,
  type ParcelSystem,
} from './harness.js';

let p: ParcelSystem;
beforeAll(async () => {
  p = await startParcelSystem();
}, 120_000);
afterAll(() => p?.stop());
beforeEach(() => {
  p.sim.reset();
  p.provider.breaker.close();
});

const STATUSES = [
  'pending',
  'info_received',
  'in_transit',
  'available_for_pickup',
  'out_for_delivery',
  'delivered',
  'delivery_failure',
  'exception',
  'expired',
  'not_found',
];

async function connected(): Promise<{
  t: TenantFixture;
  instance: Record<string, unknown> & { id: number; webhook_url: string };
}> {
  const t = await p.tenant();
  const response = await t.request('POST', `${PREFIX}/instances`, validCreate());
  expect(response.status).toBe(201);
  return { t, instance: response.body.data };
}

describe('POST /test', () => {
  it('200 with the live quota and a message; nothing saved', async () => {
    const t = await p.tenant();
    const response = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { quota: { used: 0, total: 1000, remaining: 1000 } },
      message: expect.any(String),
    });
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(201);
  });

  it('422 invalid_key for a rejected key (HTTP 200 or 401 style)', async () => {
    const t = await p.tenant();
    for (const style of ['http200', 'http401'] as const) {
      p.sim.setAuthStyle(style);
      const response = await t.request('POST', `${PREFIX}/test`, { api_key: 'wrong_key_123' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), code: 'invalid_key' });
    }
  });

  it('422 api_error for 429, 5xx and an open breaker', async () => {
    const t = await p.tenant();
    for (const httpStatus of [429, 500, 503]) {
      p.sim.failNext('getquota', { httpStatus });
      const response = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), code: 'api_error' });
    }
    p.provider.breaker.open();
    const open = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
    expect(open.body).toEqual({ message: expect.any(String), code: 'api_error' });
  });

  it('422 with errors.api_key for missing, empty, null, non-string, 7 and 256 characters', async () => {
    const t = await p.tenant();
    for (const body of [
      {},
      { api_key: '' },
      { api_key: null },
      { api_key: 12345678 },
      { api_key: ['a'] },
      { api_key: 'a'.repeat(7) },
      { api_key: 'a'.repeat(256) },
    ]) {
      const response = await t.request('POST', `${PREFIX}/test`, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toEqual({
        message: expect.any(String),
        errors: { api_key: [expect.any(String)] },
      });
    }
    expect((await t.request('POST', `${PREFIX}/test`, { api_key: 'a'.repeat(8) })).body.code).toBe(
      'invalid_key',
    );
  });
});

describe('POST /instances', () => {
  it('201 with exactly the specification fields, a wh_ webhook_url on the tenant address and null live fields', async () => {
    const t = await p.tenant();
    const response = await t.request(
      'POST',
      `${PREFIX}/instances`,
      validCreate({
        auto_track: { rmas: false },
        auto_track_channels: {
          default: 'none',
          channels: { '3': { enabled: true, sub_channels: { '31': false } } },
        },
      }),
    );
    expect(response.status).toBe(201);
    const data = response.body.data;
    expect(Object.keys(data)).toEqual([
      'id',
      'name',
      'is_automatic_sync_enabled',
      'auto_track',
      'auto_track_channels',
      'webhook_url',
      'quota',
      'status_counts',
      'last_webhook_at',
      'last_event_at',
      'created_at',
      'updated_at',
    ]);
    expect(data).toMatchObject({
      id: expect.any(Number),
      name: 'Parcel tracking',
      is_automatic_sync_enabled: true,
      auto_track: {
        sales_order_fulfillments: true,
        inbound_shipments: true,
        warehouse_transfer_shipments: true,
        rmas: false,
        vendor_credit_shipments: true,
      },
      auto_track_channels: {
        default: 'none',
        channels: { '3': { enabled: true, sub_channels: { '31': false } } },
      },
      quota: null,
      status_counts: null,
      last_webhook_at: null,
      last_event_at: null,
    });
    expect(data.webhook_url).toMatch(
      new RegExp(
        `^${t.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/webhooks/parcel-tracking/wh_[A-Za-z0-9_-]{32,}$`,
      ),
    );
    expect(new Date(data.created_at).toISOString()).toBe(data.created_at);
    expect(response.text).not.toContain(GOOD_KEY);
  });

  it('defaults auto_track to true and auto_track_channels to all; ignores unknown fields', async () => {
    const t = await p.tenant();
    const response = await t.request(
      'POST',
      `${PREFIX}/instances`,
      validCreate({ unknown_field: 'x', auto_track: { rmas: true, not_a_type: false } }),
    );
    expect(response.status).toBe(201);
    expect(response.body.data.auto_track).toEqual({
      sales_order_fulfillments: true,
      inbound_shipments: true,
      warehouse_transfer_shipments: true,
      rmas: true,
      vendor_credit_shipments: true,
    });
    expect(response.body.data.auto_track_channels).toEqual({ default: 'all', channels: {} });
    expect(response.body.data).not.toHaveProperty('unknown_field');
  });

  it('422 for a second instance, and exactly one of two concurrent creates wins', async () => {
    const t = await p.tenant();
    const [a, b] = await Promise.all([
      t.request('POST', `${PREFIX}/instances`, validCreate()),
      t.request('POST', `${PREFIX}/instances`, validCreate()),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    const loser = a.status === 422 ? a : b;
    expect(loser.body).toEqual({ message: expect.any(String), code: 'already_exists' });
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(422);
  });

  it('422 invalid_key when the provider rejects the key, 422 api_error when it is down', async () => {
    const t = await p.tenant();
    const rejected = await t.request(
      'POST',
      `${PREFIX}/instances`,
      validCreate({ api_key: 'rejected_key_1' }),
    );
    expect(rejected.status).toBe(422);
    expect(rejected.body).toEqual({ message: expect.any(String), code: 'invalid_key' });
    p.sim.failNext('getquota', { httpStatus: 503 });
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).body.code).toBe(
      'api_error',
    );
    p.provider.breaker.open();
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).body.code).toBe(
      'api_error',
    );
    p.provider.breaker.close();
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(201);
  });

  it('422 naming every bad field: types, empty strings, 256-char names, 7/256-char keys, booleans, default', async () => {
    const t = await p.tenant();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ api_key: GOOD_KEY }, 'name'],
      [validCreate({ name: '' }), 'name'],
      [validCreate({ name: 123 }), 'name'],
      [validCreate({ name: 'n'.repeat(256) }), 'name'],
      [{ name: 'x' }, 'api_key'],
      [validCreate({ api_key: '' }), 'api_key'],
      [validCreate({ api_key: 12345678 }), 'api_key'],
      [validCreate({ api_key: 'k'.repeat(7) }), 'api_key'],
      [validCreate({ api_key: 'k'.repeat(256) }), 'api_key'],
      [validCreate({ auto_track: 'yes' }), 'auto_track'],
      [validCreate({ auto_track: { rmas: 'yes' } }), 'auto_track.rmas'],
      [validCreate({ auto_track: { inbound_shipments: 1 } }), 'auto_track.inbound_shipments'],
      [validCreate({ auto_track_channels: { default: 'some' } }), 'auto_track_channels.default'],
      [validCreate({ auto_track_channels: { default: 1 } }), 'auto_track_channels.default'],
      [
        validCreate({
          auto_track_channels: { default: 'all', channels: { '1': { enabled: 'no' } } },
        }),
        'auto_track_channels.channels.1.enabled',
      ],
      [
        validCreate({
          auto_track_channels: {
            default: 'all',
            channels: { '1': { sub_channels: { '2': 'on' } } },
          },
        }),
        'auto_track_channels.channels.1.sub_channels.2',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await t.request('POST', `${PREFIX}/instances`, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(Object.keys(response.body.errors), JSON.stringify(body).slice(0, 80)).toEqual([field]);
      expect(response.body.message).toEqual(expect.any(String));
    }
    const all = await t.request('POST', `${PREFIX}/instances`, {
      name: 'n'.repeat(256),
      api_key: 'short',
    });
    expect(Object.keys(all.body.errors)).toEqual(['name', 'api_key']);
    // Nothing was created by any of them.
    expect(
      (await t.request('POST', `${PREFIX}/instances`, validCreate({ name: 'n'.repeat(255) })))
        .status,
    ).toBe(201);
  });
});

describe('GET /instances/{id}', () => {
  it('200 with the live dashboard: quota, 10 zero-filled statuses, errors, transit, side effects, threshold', async () => {
    const { t, instance } = await connected();
    const response = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      id: instance.id,
      name: 'Parcel tracking',
      webhook_url: instance.webhook_url,
      quota: { used: 0, total: 1000, remaining: 1000 },
      quota_error: null,
      pending_registration_count: 0,
      registration_errors: [],
      last_webhook_at: null,
      last_event_at: null,
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: true,
      },
      quota_alert_threshold: 80,
      transit: {
        window_days: 90,
        delivered_count: 0,
        average_days_in_transit: null,
        on_time_rate: null,
        carriers: [],
      },
    });
    expect(Object.keys(data.status_counts)).toEqual(STATUSES);
    expect(Object.values(data.status_counts).every((count) => count === 0)).toBe(true);
  });

  it('still answers when the provider is down, with quota null and quota_error', async () => {
    const { t, instance } = await connected();
    p.sim.failNext('getquota', { httpStatus: 500 });
    const failed = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(failed.status).toBe(200);
    expect(failed.body.data.quota).toBeNull();
    expect(failed.body.data.quota_error).toEqual({
      code: 'api_error',
      message: expect.any(String),
    });
    expect(Object.keys(failed.body.data.status_counts)).toHaveLength(10);
    p.provider.breaker.open();
    const open = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(open.status).toBe(200);
    expect(open.body.data.quota_error.code).toBe('api_error');
  });

  it('404 envelope for an unknown or malformed id', async () => {
    const t = await p.tenant();
    for (const id of ['999999', 'abc', '0', '-1']) {
      const response = await t.request('GET', `${PREFIX}/instances/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        errors: { url: [{ message: expect.any(String), code: 'NotFound', data: [] }] },
        status: 'failure',
        message: expect.any(String),
      });
    }
  });
});

describe('PATCH /instances/{id}', () => {
  it('applies only the keys present, merges nested objects, answers with the live fields null', async () => {
    const { t, instance } = await connected();
    const response = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      auto_track: { rmas: false },
      side_effects: { rma_arrival_alert: false },
      quota_alert_threshold: 95,
      is_automatic_sync_enabled: false,
      auto_track_channels: { channels: { '7': { enabled: false } } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: instance.id,
      name: 'Parcel tracking',
      is_automatic_sync_enabled: false,
      auto_track: {
        sales_order_fulfillments: true,
        inbound_shipments: true,
        warehouse_transfer_shipments: true,
        rmas: false,
        vendor_credit_shipments: true,
      },
      auto_track_channels: { default: 'all', channels: { '7': { enabled: false } } },
      webhook_url: null,
      quota: null,
      status_counts: null,
      last_webhook_at: null,
      last_event_at: null,
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: false,
      },
      quota_alert_threshold: 95,
      created_at: instance.created_at,
      updated_at: expect.any(String),
    });
    const second = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      name: 'Renamed',
      auto_track_channels: { channels: { '7': { sub_channels: { '70': true } } } },
    });
    expect(second.body.data).toMatchObject({
      name: 'Renamed',
      quota_alert_threshold: 95,
      auto_track: { rmas: false },
      auto_track_channels: { channels: { '7': { enabled: false, sub_channels: { '70': true } } } },
    });
  });

  it('rotates the key after verifying it with the provider', async () => {
    const { t, instance } = await connected();
    expect(
      (
        await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
          api_key: 'rejected_key_1',
        })
      ).body.code,
    ).toBe('invalid_key');
    const rotated = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      api_key: OTHER_KEY,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain(OTHER_KEY);
    expect(
      (await t.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.quota.total,
    ).toBe(50);
  });

  it('422 for out-of-bounds and wrong-typed values, 404 for an unknown id', async () => {
    const { t, instance } = await connected();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ quota_alert_threshold: 0 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: 100 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: 50.5 }, 'quota_alert_threshold'],
      [{ quota_alert_threshold: '50' }, 'quota_alert_threshold'],
      [{ name: 'n'.repeat(256) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: false }, 'name'],
      [{ api_key: 'k'.repeat(7) }, 'api_key'],
      [{ api_key: 'k'.repeat(256) }, 'api_key'],
      [{ is_automatic_sync_enabled: 'true' }, 'is_automatic_sync_enabled'],
      [{ side_effects: { rma_arrival_alert: 0 } }, 'side_effects.rma_arrival_alert'],
      [{ auto_track: { rmas: null } }, 'auto_track.rmas'],
      [{ auto_track_channels: { default: 'sometimes' } }, 'auto_track_channels.default'],
    ];
    for (const [body, field] of cases) {
      const response = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(response.body.errors)).toEqual([field]);
    }
    const unchanged = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(unchanged.body.data).toMatchObject({
      name: 'Parcel tracking',
      quota_alert_threshold: 80,
      is_automatic_sync_enabled: true,
    });
    expect((await t.request('PATCH', `${PREFIX}/instances/424242`, { name: 'x' })).status).toBe(
      404,
    );
  });
});

describe('DELETE /instances/{id}', () => {
  it('204 with no content; the old webhook_url then answers 404; reconnecting gives a new id and token', async () => {
    const { t, instance } = await connected();
    const webhookPath = new URL(instance.webhook_url).pathname;
    expect(
      (
        await t.anonymous('POST', webhookPath, {
          event: 'TRACKING_UPDATED',
          data: { number: '1Z999AA10123456784' },
        })
      ).status,
    ).toBe(200);

    const response = await t.request('DELETE', `${PREFIX}/instances/${instance.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    const old = await t.anonymous('POST', webhookPath, {
      event: 'TRACKING_UPDATED',
      data: { number: '1Z999AA10123456784' },
    });
    expect(old.status).toBe(404);
    expect(old.body.errors.url[0].code).toBe('NotFound');
    expect((await t.request('GET', `${PREFIX}/instances/${instance.id}`)).status).toBe(404);
    expect((await t.request('DELETE', `${PREFIX}/instances/${instance.id}`)).status).toBe(404);

    const again = await t.request('POST', `${PREFIX}/instances`, validCreate());
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(instance.id);
    expect(again.body.data.webhook_url).not.toBe(instance.webhook_url);
  });
});

describe('tenant isolation', () => {
  it('tenant B with its own token on its own host gets 404 for tenant A’s instance on every endpoint', async () => {
    const { t: a, instance } = await connected();
    const b = await p.tenant();
    for (const [method, path, body] of [
      ['GET', `${PREFIX}/instances/${instance.id}`, undefined],
      ['PATCH', `${PREFIX}/instances/${instance.id}`, { name: 'stolen' }],
      ['DELETE', `${PREFIX}/instances/${instance.id}`, undefined],
      ['GET', `${PREFIX}/instances/${instance.id}/trackable-channels`, undefined],
    ] as const) {
      const response = await b.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.errors.url[0].code).toBe('NotFound');
    }
    expect((await a.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.name).toBe(
      'Parcel tracking',
    );
    // A's webhook URL path on B's host is unknown there.
    expect((await b.anonymous('POST', new URL(instance.webhook_url).pathname, {})).status).toBe(
      404,
    );
  });

  it('requires a token on the instance endpoints', async () => {
    const { t, instance } = await connected();
    expect((await t.anonymous('GET', `${PREFIX}/instances/${instance.id}`)).status).toBe(401);
    expect((await t.anonymous('POST', `${PREFIX}/test`, { api_key: GOOD_KEY })).status).toBe(401);
  });
});

describe('GET /instances/{id}/activity', () => {
  it('shows connected (causer: the user) and updated (changed_keys, no secrets); 404 for another tenant', async () => {
    const { t, instance } = await connected();
    await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      name: 'Renamed',
      api_key: OTHER_KEY,
    });
    const started = Date.now();
    let page: Awaited<ReturnType<TenantFixture['request']>>;
    for (;;) {
      page = await t.request('GET', `${PREFIX}/instances/${instance.id}/activity`);
      if (page.status === 200 && page.body.data.length >= 2) break;
      if (Date.now() - started > 8_000)
        throw new Error(`activity did not arrive: ${page.status} ${page.text}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const events = page.body.data as Array<{
      event: string;
      causer_id: unknown;
      properties: Record<string, unknown>;
    }>;
    expect(events.map((row) => row.event).sort()).toEqual(['connected', 'updated']);
    expect(events.every((row) => row.causer_id === t.user.id)).toBe(true);
    expect(events.find((row) => row.event === 'updated')!.properties.changed_keys).toEqual([
      'name',
      'api_key',
    ]);
    expect(page.text).not.toContain(OTHER_KEY);
    expect(page.text).not.toContain(GOOD_KEY);
    expect(page.body.meta.path).toBe(`${t.baseUrl}${PREFIX}/instances/${instance.id}/activity`);

    const b = await p.tenant();
    expect((await b.request('GET', `${PREFIX}/instances/${instance.id}/activity`)).status).toBe(
      404,
    );
    expect((await t.request('GET', `${PREFIX}/instances/999999/activity`)).status).toBe(404);
  });
});
