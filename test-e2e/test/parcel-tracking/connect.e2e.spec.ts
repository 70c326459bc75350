import { eventually } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { GOOD_KEY, OTHER_KEY, PREFIX, validCreate } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

describe('POST /test', () => {
  it('200 with the live quota and a message; nothing saved', async () => {
    const t = await suite.p.tenant();
    const response = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { quota: { used: 0, total: 1000, remaining: 1000 } },
      message: expect.any(String),
    });
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(201);
  });

  it('422 invalid_key for a rejected key (HTTP 200 or 401 style)', async () => {
    const t = await suite.p.tenant();
    for (const style of ['http200', 'http401'] as const) {
      suite.p.sim.setAuthStyle(style);
      const response = await t.request('POST', `${PREFIX}/test`, { api_key: 'wrong_key_123' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), code: 'invalid_key' });
    }
  });

  it('422 api_error for 429, 5xx and an open breaker', async () => {
    const t = await suite.p.tenant();
    for (const httpStatus of [429, 500, 503]) {
      suite.p.sim.failNext('getquota', { httpStatus });
      const response = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: expect.any(String), code: 'api_error' });
    }
    await suite.p.openBreaker();
    const open = await t.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
    expect(open.body).toEqual({ message: expect.any(String), code: 'api_error' });
  });

  it("one tenant's rate-limited key never refuses another tenant's key (breakers per key)", async () => {
    const [a, b] = [await suite.p.tenant(), await suite.p.tenant()];
    const { sim } = suite.p;
    sim.failNext('*', { httpStatus: 429, times: 1_000, apiKey: OTHER_KEY });
    const left = () => sim.state.faults.pending()[0]?.remaining;
    for (let call = 0; call < 5; call++) {
      const limited = await a.request('POST', `${PREFIX}/test`, { api_key: OTHER_KEY });
      expect(limited.status).toBe(422);
      expect(limited.body).toEqual({ message: expect.any(String), code: 'api_error' });
    }
    expect(left()).toBe(995);
    // The tenant's key now fails fast, without the provider being asked...
    const fast = await a.request('POST', `${PREFIX}/test`, { api_key: OTHER_KEY });
    expect(fast.body.code).toBe('api_error');
    expect(left()).toBe(995);
    // ...while another tenant's valid key is asked and answered.
    const other = await b.request('POST', `${PREFIX}/test`, { api_key: GOOD_KEY });
    expect(other.status).toBe(200);
    expect(other.body.data.quota).toEqual({ used: 0, total: 1000, remaining: 1000 });
    sim.state.faults.clear();
    await eventually(async () => {
      const again = await a.request('POST', `${PREFIX}/test`, { api_key: OTHER_KEY });
      if (again.status !== 200) throw new Error('the key is still refused');
    }, "the rate-limited key's breaker to close");
  });

  it('422 with errors.api_key for missing, empty, null, non-string, 7 and 256 characters', async () => {
    const t = await suite.p.tenant();
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
    const t = await suite.p.tenant();
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
    const t = await suite.p.tenant();
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
    const t = await suite.p.tenant();
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
    const t = await suite.p.tenant();
    const rejected = await t.request(
      'POST',
      `${PREFIX}/instances`,
      validCreate({ api_key: 'rejected_key_1' }),
    );
    expect(rejected.status).toBe(422);
    expect(rejected.body).toEqual({ message: expect.any(String), code: 'invalid_key' });
    suite.p.sim.failNext('getquota', { httpStatus: 503 });
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).body.code).toBe(
      'api_error',
    );
    await suite.p.openBreaker();
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).body.code).toBe(
      'api_error',
    );
    await suite.p.providerRecovered();
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(201);
  });

  it('422 naming every bad field: types, empty strings, 256-char names, 7/256-char keys, booleans, default', async () => {
    const t = await suite.p.tenant();
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
    // A type error and a rule violation together: one answer names both.
    const mixed = await t.request('POST', `${PREFIX}/instances`, {
      name: 123,
      api_key: 'short',
      auto_track: { rmas: 'yes' },
    });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors).toEqual({
      name: ['The name field must be a string.'],
      'auto_track.rmas': ['The auto track.rmas field must be true or false.'],
      api_key: ['The api key field must be at least 8 characters.'],
    });
    // Nothing was created by any of them.
    expect(
      (await t.request('POST', `${PREFIX}/instances`, validCreate({ name: 'n'.repeat(255) })))
        .status,
    ).toBe(201);
  });
});
