import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  salesChannelConnected,
  salesChannelDisconnected,
  salesChannelUpdated,
} from '../src/events/sales-channel-events.js';
import { seedSalesChannels } from '../src/dev/seed-sales-channels.js';
import { as, eventually, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

const channel = (id: number, name: string) => ({
  sales_channel_id: id,
  name,
  platform: 'shopify',
  icon_url: '/i.svg',
  sub_channels: [{ id: id * 10, name: 'POS', external_identifier: 'pos' }],
});

async function listed(tenant: string, instanceId: number) {
  return (await as(tenant, () => h.client.call.listTrackableChannels({ id: instanceId }))).channels;
}

describe('trackable-channels read model', () => {
  it('follows connected/updated/disconnected events; old or duplicate events never resurrect or roll back', async () => {
    const tenant = `chan-${Date.now()}`;
    const { instance } = await as(tenant, () =>
      h.client.call.createInstance({
        input_violations: [],
        name: 'x',
        api_key: 'good_provider_key_1',
      }),
    );
    const id = instance!.id;
    const publish = h.service.publisher;
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(1, 'Shop v1'), version: 1 },
    });
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(2, 'Other'), version: 1 },
    });
    await publish.publish(salesChannelUpdated, {
      tenantId: tenant,
      payload: { channel: channel(1, 'Shop v3'), version: 3 },
    });
    // Older than what is stored: ignored.
    await publish.publish(salesChannelUpdated, {
      tenantId: tenant,
      payload: { channel: channel(1, 'Shop v2'), version: 2 },
    });
    await eventually(async () =>
      expect((await listed(tenant, id)).map((c) => c.name)).toEqual(['Shop v3', 'Other']),
    );

    await publish.publish(salesChannelDisconnected, {
      tenantId: tenant,
      payload: { sales_channel_id: 2, version: 5 },
    });
    // A late update (even a newer one) never reconnects; an older connect neither.
    await publish.publish(salesChannelUpdated, {
      tenantId: tenant,
      payload: { channel: channel(2, 'Late update'), version: 4 },
    });
    await publish.publish(salesChannelUpdated, {
      tenantId: tenant,
      payload: { channel: channel(2, 'Newer update'), version: 6 },
    });
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(2, 'Old connect'), version: 3 },
    });
    // A disconnect that arrives before its channel was ever seen leaves a tombstone.
    await publish.publish(salesChannelDisconnected, {
      tenantId: tenant,
      payload: { sales_channel_id: 9, version: 10 },
    });
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(9, 'Too old'), version: 8 },
    });
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(3, 'Marker'), version: 1 },
    });
    await eventually(async () =>
      expect((await listed(tenant, id)).map((c) => c.name)).toEqual(['Shop v3', 'Marker']),
    );
    const stored = await h.stored('sales_channels').findOne({
      tenant_id: tenant,
      sales_channel_id: 2,
    });
    expect(stored).toMatchObject({ connected: false, name: 'Newer update', version: 6 });

    // Reconnecting with a newer version brings it back.
    await publish.publish(salesChannelConnected, {
      tenantId: tenant,
      payload: { channel: channel(2, 'Back'), version: 7 },
    });
    await eventually(async () =>
      expect((await listed(tenant, id)).map((c) => c.name)).toEqual(['Shop v3', 'Back', 'Marker']),
    );
    expect((await listed(tenant, id))[0]!.sub_channels).toEqual([
      { id: 10, name: 'POS', external_identifier: 'pos' },
    ]);
  });

  it('seeds development channels per tenant, idempotently', async () => {
    const tenant = `seed-${Date.now()}`;
    const { instance } = await as(tenant, () =>
      h.client.call.createInstance({
        input_violations: [],
        name: 'x',
        api_key: 'good_provider_key_1',
      }),
    );
    await seedSalesChannels({ natsUrl: h.infra.natsUrl, tenantId: tenant });
    await seedSalesChannels({ natsUrl: h.infra.natsUrl, tenantId: tenant });
    await eventually(async () =>
      expect((await listed(tenant, instance!.id)).map((c) => c.platform)).toEqual([
        'shopify',
        'amazon',
        'ebay',
      ]),
    );
    expect(
      await listed(`someone-else-${Date.now()}`, instance!.id).catch(
        (error: Error) => error.message,
      ),
    ).toMatch(/not found/i);
  });
});
