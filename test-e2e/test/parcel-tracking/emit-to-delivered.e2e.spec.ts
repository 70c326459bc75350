import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { startProviderSim, type ProviderSimHandle } from '@inventory/provider-sim';
import { waitFor } from '@inventory/local-infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken } from '../../src/fixtures/tenants.js';
import { startSystem, type RunningSystem } from '../../src/system.js';
import { GOOD_KEY, PREFIX, validCreate } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../../..');

let sim: ProviderSimHandle;
let system: RunningSystem;

beforeAll(async () => {
  sim = await startProviderSim({ keys: [{ key: GOOD_KEY }], rateLimitPerSecond: 1000 });
  system = await startSystem({
    serviceEnv: {
      'parcel-tracking': {
        PROVIDER_BASE_URL: sim.url,
        PROVIDER_RATE_PER_SECOND: '1000',
        // Workers every 100 ms, and every registered row is due for polling at each pass.
        TRACKING_WORKER_INTERVAL_MS: '100',
        POLL_STALE_AFTER_MS: '1',
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await system?.stop();
  await sim?.stop();
});

/** Polls until `check` returns a value (or the generous cap passes). */
const until = <T>(check: () => Promise<T | undefined>, what: string, capMs = 60_000): Promise<T> =>
  waitFor(check, { what, timeoutMs: capMs });

describe('a shipment emitted with npm run emit reaches delivered by polling', () => {
  it('emit → row → registered → polled through the progression → delivered, seen through the gateway', async () => {
    const t = await createTenantWithToken(system);
    const created = await t.request('POST', `${PREFIX}/instances`, validCreate());
    expect(created.status).toBe(201);
    const url = `${PREFIX}/instances/${created.body.data.id}/trackings`;
    const number = '1Z999AA10123456799';

    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'emit',
        '--',
        'shipment.tracking_assigned',
        '--tenant',
        t.tenant.slug,
        '--data',
        JSON.stringify({
          trackable_type: 'sales_order_fulfillment',
          trackable_id: 501,
          trackable_label: 'SO-501 / F1',
          trackable_url: '/sales-orders/501/fulfillments/1',
          tracking_number: number,
          sales_channel_id: 1,
          sub_channel_id: 11,
        }),
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NATS_URL: system.infra.natsUrl,
          IDENTITY_GRPC_ADDRESS: system.services.identity!.grpc!.address,
          EMIT_DEV_FILE: resolve(ROOT, '.data/no-such-dev.json'),
        },
      },
    );
    const printed = JSON.parse(stdout.trim()) as {
      subject: string;
      event_id: string;
      tenant_id: string;
    };
    expect(printed).toMatchObject({
      subject: 'shipment.tracking_assigned',
      tenant_id: t.tenant.id,
    });

    const row = async () =>
      (await t.request('GET', url)).body.data[0] as Record<string, unknown> | undefined;
    const registered = await until(async () => {
      const found = await row();
      return found?.registered_at ? found : undefined;
    }, 'registration');
    expect(registered).toMatchObject({
      tracking_number: number,
      trackable_type: 'sales_order_fulfillment',
      trackable_url: '/sales-orders/501/fulfillments/1',
      carrier_code: 100002,
    });

    const seen = new Set<string>();
    for (let step = 0; step < 4; step++) {
      sim.advance(number);
      const status = await until(
        async () => {
          const found = await row();
          const value = found?.delivery_status as string | undefined;
          return value && value !== 'not_found' && value !== 'pending' && !seen.has(value)
            ? value
            : undefined;
        },
        `step ${step + 1}`,
      );
      seen.add(status);
    }
    expect([...seen]).toEqual(['info_received', 'in_transit', 'out_for_delivery', 'delivered']);
    const delivered = (await row())!;
    expect(delivered).toMatchObject({
      delivery_status: 'delivered',
      delivery_status_label: 'Delivered',
      sub_status: 'Delivered_Other',
      carrier_name: 'UPS',
    });
    expect(delivered.delivered_at).not.toBeNull();
    expect(delivered.picked_up_at).not.toBeNull();

    const dashboard = await t.request('GET', `${PREFIX}/instances/${created.body.data.id}`);
    expect(dashboard.body.data.status_counts.delivered).toBe(1);
    expect(dashboard.body.data.pending_registration_count).toBe(0);
    // The shipment in the daily trends: registered and delivered within the last 30 days.
    const daily = dashboard.body.data.trends.daily as Array<{
      registered: number;
      delivered: number;
    }>;
    expect(daily).toHaveLength(30);
    const sum = (key: 'registered' | 'delivered') =>
      daily.reduce((total, day) => total + day[key], 0);
    expect([sum('registered'), sum('delivered')]).toEqual([1, 1]);
    // The carrier the provider assigned, by name: the trackings filter's choice.
    expect(dashboard.body.data.carriers_seen).toEqual([
      { carrier_code: 100002, carrier_name: 'UPS' },
    ]);
  });
});
