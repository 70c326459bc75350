import type { SalesChannelSnapshot } from '@inventory/contracts/events/v1/sales_channel.js';
import { connectNats, ensureStream, EventPublisher } from '@inventory/platform';
import { CATALOG_STREAM } from '@inventory/events';
import { salesChannelConnected } from '../events/sales-channel-events.js';

/** A few channels for a development tenant; fulfillment types are sub-channels. */
export const DEV_SALES_CHANNELS: SalesChannelSnapshot[] = [
  {
    sales_channel_id: 1,
    name: 'Shopify Store',
    platform: 'shopify',
    icon_url: '/images/channels/shopify.svg',
    sub_channels: [
      { id: 101, name: 'Online Store', external_identifier: 'online_store' },
      { id: 102, name: 'Point of Sale', external_identifier: 'pos' },
    ],
  },
  {
    sales_channel_id: 2,
    name: 'Amazon US',
    platform: 'amazon',
    icon_url: '/images/channels/amazon.svg',
    sub_channels: [
      { id: 201, name: 'Fulfilled by Amazon (FBA)', external_identifier: 'AFN' },
      { id: 202, name: 'Fulfilled by Merchant (FBM)', external_identifier: 'MFN' },
    ],
  },
  {
    sales_channel_id: 3,
    name: 'eBay',
    platform: 'ebay',
    icon_url: '/images/channels/ebay.svg',
    sub_channels: [],
  },
];

/**
 * Publishes `catalog.sales_channel.connected` for each channel, as the catalog
 * area would, so parcel-tracking's trackable-channels read model has data
 * (used by `npm start` and tests). Event ids are derived from tenant + channel
 * + version, so seeding twice stores each event once.
 */
export async function seedSalesChannels(options: {
  natsUrl: string;
  tenantId: string;
  channels?: SalesChannelSnapshot[];
  version?: number;
}): Promise<SalesChannelSnapshot[]> {
  const channels = options.channels ?? DEV_SALES_CHANNELS;
  const version = options.version ?? 1;
  const nats = await connectNats(options.natsUrl, 'seed-sales-channels');
  try {
    await ensureStream(await nats.jetstreamManager(), CATALOG_STREAM);
    const publisher = new EventPublisher(nats.jetstream());
    for (const channel of channels) {
      await publisher.publish(salesChannelConnected, {
        id: `seed-${options.tenantId}-${channel.sales_channel_id}-${version}`,
        tenantId: options.tenantId,
        payload: { channel, version },
      });
    }
    return channels;
  } finally {
    await nats.drain();
  }
}
