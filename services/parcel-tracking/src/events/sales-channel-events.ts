import {
  SalesChannelConnected,
  SalesChannelDisconnected,
  SalesChannelUpdated,
  type SalesChannelSnapshot,
} from '@inventory/contracts/events/v1/sales_channel.js';
import { defineEvent, type DomainEvent } from '@inventory/platform';
import type { ChannelSnapshot } from '../store/sales-channel.js';
import type { SalesChannelRepository } from '../store/sales-channel-repository.js';

export const salesChannelConnected = defineEvent(
  'catalog.sales_channel.connected',
  SalesChannelConnected,
);
export const salesChannelUpdated = defineEvent(
  'catalog.sales_channel.updated',
  SalesChannelUpdated,
);
export const salesChannelDisconnected = defineEvent(
  'catalog.sales_channel.disconnected',
  SalesChannelDisconnected,
);

function snapshot(channel: SalesChannelSnapshot): ChannelSnapshot {
  return {
    name: channel.name,
    platform: channel.platform,
    icon_url: channel.icon_url,
    sub_channels: channel.sub_channels.map((sub) => ({
      id: sub.id,
      name: sub.name,
      external_identifier: sub.external_identifier,
    })),
  };
}

/** Without a producer version, the event's time orders changes. */
const versionOf = (version: number, event: DomainEvent<unknown>) =>
  version > 0 ? version : event.occurredAt.getTime();

/**
 * Keeps the trackable-channels read model. Each handler is a conditional write
 * on `version`, so redeliveries and out-of-order events are harmless, and only
 * `connected` can (re)connect a channel.
 */
export function salesChannelHandlers(store: SalesChannelRepository) {
  return {
    async connected(event: DomainEvent<SalesChannelConnected>) {
      const channel = event.payload.channel;
      if (!channel) return;
      await store.apply(
        event.tenantId,
        channel.sales_channel_id,
        versionOf(event.payload.version, event),
        { ...snapshot(channel), connected: true },
      );
    },
    async updated(event: DomainEvent<SalesChannelUpdated>) {
      const channel = event.payload.channel;
      if (!channel) return;
      await store.apply(
        event.tenantId,
        channel.sales_channel_id,
        versionOf(event.payload.version, event),
        snapshot(channel),
      );
    },
    async disconnected(event: DomainEvent<SalesChannelDisconnected>) {
      await store.apply(
        event.tenantId,
        event.payload.sales_channel_id,
        versionOf(event.payload.version, event),
        { connected: false },
      );
    },
  };
}
