import { describe, expect, it } from 'vitest';
import { isAutoTracked, type ChannelScopeSettings } from './channel-scope.js';
import { AUTO_TRACK_KEYS, type AutoTrackSettings } from './instance-settings.js';

const allOn = Object.fromEntries(AUTO_TRACK_KEYS.map((k) => [k, true])) as AutoTrackSettings;
const scope = (
  defaultScope: 'all' | 'none',
  channels: ChannelScopeSettings['channels'] = {},
): ChannelScopeSettings => ({ default: defaultScope, channels });
const fulfillment = (channel?: number, sub?: number) => ({
  trackable_type: 'sales_order_fulfillment',
  sales_channel_id: channel,
  sub_channel_id: sub,
});

/** Every rule of the specification's "Channel scoping rules" list, plus each auto_track flag. */
describe('isAutoTracked', () => {
  const cases: Array<[string, AutoTrackSettings, ChannelScopeSettings, object, boolean]> = [
    // Rule 1: most specific first — sub-channel override, then channel enabled, then default.
    [
      'sub-channel true beats channel disabled',
      allOn,
      scope('all', { '1': { enabled: false, sub_channels: { '10': true } } }),
      fulfillment(1, 10),
      true,
    ],
    [
      'sub-channel false beats channel enabled',
      allOn,
      scope('none', { '1': { enabled: true, sub_channels: { '10': false } } }),
      fulfillment(1, 10),
      false,
    ],
    [
      'sub-channel true beats default none',
      allOn,
      scope('none', { '1': { sub_channels: { '10': true } } }),
      fulfillment(1, 10),
      true,
    ],
    [
      'other sub-channel falls back to channel enabled',
      allOn,
      scope('none', { '1': { enabled: true, sub_channels: { '10': false } } }),
      fulfillment(1, 11),
      true,
    ],
    [
      'channel enabled false beats default all',
      allOn,
      scope('all', { '1': { enabled: false } }),
      fulfillment(1, 10),
      false,
    ],
    [
      'channel enabled true beats default none',
      allOn,
      scope('none', { '1': { enabled: true } }),
      fulfillment(1),
      true,
    ],
    // Rule 2: all tracks everything not explicitly disabled; none nothing until enabled.
    ['default all, unknown channel', allOn, scope('all'), fulfillment(7, 70), true],
    ['default none, unknown channel', allOn, scope('none'), fulfillment(7, 70), false],
    ['default all, no channel on the event', allOn, scope('all'), fulfillment(), true],
    ['default none, no channel on the event', allOn, scope('none'), fulfillment(), false],
    // Rule 3: fulfillment type is a sub-channel (Amazon FBA=21 off, FBM=22 on).
    [
      'fulfillment type FBA disabled',
      allOn,
      scope('all', { '2': { sub_channels: { '21': false } } }),
      fulfillment(2, 21),
      false,
    ],
    [
      'fulfillment type FBM untouched',
      allOn,
      scope('all', { '2': { sub_channels: { '21': false } } }),
      fulfillment(2, 22),
      true,
    ],
    // Rule 4: only sales order fulfillments are scoped.
    ...['inbound_shipment', 'warehouse_transfer_shipment', 'rma', 'vendor_credit_shipment'].map(
      (type) =>
        [
          `${type} ignores default none`,
          allOn,
          scope('none', { '1': { enabled: false } }),
          { trackable_type: type, sales_channel_id: 1 },
          true,
        ] as [string, AutoTrackSettings, ChannelScopeSettings, object, boolean],
    ),
    // Each auto_track flag switches its own type off, and only it.
    ...AUTO_TRACK_KEYS.map((flag) => {
      const type = {
        sales_order_fulfillments: 'sales_order_fulfillment',
        inbound_shipments: 'inbound_shipment',
        warehouse_transfer_shipments: 'warehouse_transfer_shipment',
        rmas: 'rma',
        vendor_credit_shipments: 'vendor_credit_shipment',
      }[flag];
      return [
        `auto_track.${flag} off`,
        { ...allOn, [flag]: false },
        scope('all'),
        { trackable_type: type },
        false,
      ] as [string, AutoTrackSettings, ChannelScopeSettings, object, boolean];
    }),
    [
      'an unknown trackable type is never tracked',
      allOn,
      scope('all'),
      { trackable_type: 'invoice' },
      false,
    ],
  ];

  it.each(cases)('%s', (_name, autoTrack, channels, shipment, expected) => {
    expect(
      isAutoTracked({ auto_track: autoTrack, auto_track_channels: channels }, shipment as never),
    ).toBe(expected);
  });

  it('a flag that is off leaves the other types tracked', () => {
    const settings = { auto_track: { ...allOn, rmas: false }, auto_track_channels: scope('all') };
    expect(isAutoTracked(settings, { trackable_type: 'inbound_shipment' })).toBe(true);
  });
});
