import { TRACKABLE_TYPES } from '@inventory/rules';
import type { AutoTrackSettings } from './instance-settings.js';
import { trackableTypeOf } from './trackable-type.js';

/** auto_track_channels as stored: `default` all/none and per-channel overrides. */
export interface ChannelScopeSettings {
  default: 'all' | 'none';
  channels: Record<string, { enabled?: boolean; sub_channels?: Record<string, boolean> }>;
}

/**
 * Whether a sales order fulfillment from this channel (and sub-channel, which
 * includes the fulfillment type) is auto-tracked. Most specific wins: the
 * sub-channel override, then the channel's `enabled`, then `default`. Only
 * sales order fulfillments are scoped; callers don't ask for other types.
 */
export function isChannelTracked(
  settings: ChannelScopeSettings,
  channelId: number | string,
  subChannelId?: number | string,
): boolean {
  const channel = settings.channels[String(channelId)];
  if (channel && subChannelId !== undefined) {
    const override = channel.sub_channels?.[String(subChannelId)];
    if (override !== undefined) return override;
  }
  if (channel?.enabled !== undefined) return channel.enabled;
  return settings.default === 'all';
}

/** A PATCH of auto_track_channels merges key by key: default, each channel's enabled, each sub-channel. */
export function mergeChannelScope(
  current: ChannelScopeSettings,
  patch: { default?: 'all' | 'none'; channels?: ChannelScopeSettings['channels'] },
): ChannelScopeSettings {
  // A map without a prototype: ids come from the request (validated, but never a prototype key).
  const channels = Object.assign(
    Object.create(null) as ChannelScopeSettings['channels'],
    structuredClone(current.channels),
  );
  for (const [id, entry] of Object.entries(patch.channels ?? {})) {
    const existing = channels[id] ?? {};
    const merged: { enabled?: boolean; sub_channels?: Record<string, boolean> } = { ...existing };
    if (entry.enabled !== undefined) merged.enabled = entry.enabled;
    if (entry.sub_channels && Object.keys(entry.sub_channels).length > 0) {
      merged.sub_channels = { ...(existing.sub_channels ?? {}), ...entry.sub_channels };
    }
    channels[id] = merged;
  }
  return { default: patch.default ?? current.default, channels };
}

/** What auto-tracking needs to know about a shipment. */
export interface ShipmentScope {
  trackable_type: string;
  sales_channel_id?: number | null;
  sub_channel_id?: number | null;
}

/**
 * Whether an instance's settings auto-track a shipment: its type's `auto_track`
 * flag, and for sales order fulfillments only, the channel scope as well. An
 * unknown type is never tracked; a fulfillment without a channel is scoped by
 * `default` alone.
 */
export function isAutoTracked(
  settings: { auto_track: AutoTrackSettings; auto_track_channels: ChannelScopeSettings },
  shipment: ShipmentScope,
): boolean {
  const type = trackableTypeOf(shipment.trackable_type);
  if (!type || !settings.auto_track[TRACKABLE_TYPES[type].autoTrackKey]) return false;
  if (type !== 'sales_order_fulfillment') return true;
  if (shipment.sales_channel_id === null || shipment.sales_channel_id === undefined)
    return settings.auto_track_channels.default === 'all';
  return isChannelTracked(
    settings.auto_track_channels,
    shipment.sales_channel_id,
    shipment.sub_channel_id ?? undefined,
  );
}
