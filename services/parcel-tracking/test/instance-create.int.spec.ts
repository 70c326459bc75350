import { status } from '@grpc/grpc-js';
import { freePort } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import {
  activityEvents,
  as,
  eventually,
  failureOf,
  GOOD_KEY,
  startReplica,
  startReplicaWithOpenBreaker,
} from './harness.js';

import { useInstanceSuite } from './instance-suite.js';

const suite = useInstanceSuite();
const { newTenant, create } = suite;

describe('CreateInstance', () => {
  it('creates the singleton with defaults, a wh_ webhook path, an encrypted key and a connected activity', async () => {
    const tenant = newTenant();
    const { instance } = await create(tenant, {
      auto_track: { rmas: false },
      auto_track_channels: {
        default_scope: 'none',
        channels: { '5': { enabled: true, sub_channels: { '51': false } } },
      },
    });
    expect(instance).toMatchObject({
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
        default_scope: 'none',
        channels: { '5': { enabled: true, sub_channels: { '51': false } } },
      },
      side_effects: {
        vendor_credit_shipment_auto_delivered: true,
        inbound_shipment_arrival_alert: true,
        rma_arrival_alert: true,
      },
      quota_alert_threshold: 80,
    });
    expect(instance!.webhook_path).toMatch(/^\/webhooks\/parcel-tracking\/wh_[A-Za-z0-9_-]{32,}$/);
    const stored = await suite.h.stored('instances').findOne({ tenant_id: tenant });
    expect(JSON.stringify(stored)).not.toContain(GOOD_KEY);
    expect(suite.h.secrets.decrypt(stored!.api_key_encrypted)).toBe(GOOD_KEY);
    const token = instance!.webhook_path.split('/').pop()!;
    expect(await suite.h.ingest.stores.tokens.resolve(token)).toMatchObject({
      tenant_id: tenant,
      integration_instance_id: instance!.id,
      provider: 'parcel-tracking',
    });
    const events = await eventually(async () => {
      const found = await activityEvents(suite.h, tenant);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(events[0]).toMatchObject({
      event: 'connected',
      subject_type: 'integration_instance',
      subject_id: instance!.id,
      causer_id: 'user-1',
    });
    expect(JSON.stringify(events)).not.toContain(GOOD_KEY);
  });

  it("lists the tenant's instance once it exists, and only its own tenant's", async () => {
    const tenant = newTenant();
    const other = newTenant();
    const list = (of: string) => as(of, () => suite.h.client.call.listInstances({}));
    expect(await list(tenant)).toEqual({ instances: [] });
    const { instance } = await create(tenant, { name: 'Listed' });
    expect((await list(tenant)).instances).toEqual([instance]);
    expect(await list(other)).toEqual({ instances: [] });
  });

  it('refuses a second instance, and lets only one of two concurrent creates win', async () => {
    const tenant = newTenant();
    const results = await Promise.allSettled([
      create(tenant, { name: 'one' }),
      create(tenant, { name: 'two' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((await failureOf(Promise.reject(rejected.reason))).code).toBe(status.ALREADY_EXISTS);
    expect(await suite.h.stored('instances').countDocuments({ tenant_id: tenant })).toBe(1);
    expect((await failureOf(create(tenant))).code).toBe(status.ALREADY_EXISTS);
  });

  it('refuses a key the provider rejects (invalid_key) and a provider failure (api_error), saving nothing', async () => {
    const tenant = newTenant();
    expect(await failureOf(create(tenant, { api_key: 'not_a_real_key' }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'invalid_key',
    });
    suite.h.sim.failNext('getquota', { httpStatus: 500 });
    expect(await failureOf(create(tenant))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'api_error',
    });
    // A replica whose provider breaker is open (as after an outage).
    const replica = await startReplicaWithOpenBreaker(suite.h);
    try {
      expect(await failureOf(create(tenant, {}, replica.client))).toMatchObject({
        reason: 'api_error',
      });
    } finally {
      await replica.stop();
    }
    expect(await suite.h.stored('instances').countDocuments({ tenant_id: tenant })).toBe(0);
  });

  it('validates every field and reports them all at once', async () => {
    const failure = await failureOf(
      create(newTenant(), {
        name: 'x'.repeat(256),
        api_key: 'short',
        auto_track_channels: { default_scope: 'some', channels: { abc: { sub_channels: {} } } },
      }),
    );
    expect(failure.code).toBe(status.INVALID_ARGUMENT);
    expect(failure.fieldViolations.map((v) => v.field)).toEqual([
      'name',
      'api_key',
      'auto_track_channels.default',
      'auto_track_channels.channels.abc',
    ]);
    const missing = await failureOf(
      as(newTenant(), () => suite.h.client.call.createInstance({ input_violations: [] })),
    );
    expect(missing.fieldViolations).toEqual([
      { field: 'name', description: 'The name field is required.' },
      { field: 'api_key', description: 'The api key field is required.' },
    ]);
    const blank = await failureOf(create(newTenant(), { name: '   ', api_key: 'a'.repeat(256) }));
    expect(blank.fieldViolations.map((v) => v.description)).toEqual([
      'The name field is required.',
      'The api key field must not be greater than 255 characters.',
    ]);
    // 255 characters is within bounds.
    expect((await create(newTenant(), { name: 'n'.repeat(255) })).instance!.name).toHaveLength(255);
  });
});

describe('CreateInstance without the webhook registry', () => {
  it('undoes the create and answers UNAVAILABLE', async () => {
    const tenant = newTenant();
    // A replica whose registry address nothing listens on: the suite's webhook-ingest stays up
    // for the other tests, whatever order they run in.
    const replica = await startReplica(suite.h, {
      WEBHOOK_INGEST_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
    });
    try {
      expect((await failureOf(create(tenant, {}, replica.client))).code).toBe(status.UNAVAILABLE);
    } finally {
      await replica.stop();
    }
    expect(await suite.h.stored('instances').countDocuments({ tenant_id: tenant })).toBe(0);
  });
});
