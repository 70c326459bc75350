import { describe, expect, it } from 'vitest';
import { isChannelTracked, mergeChannelScope, type ChannelScopeSettings } from './channel-scope.js';

describe('channel scoping (most specific first)', () => {
  const settings: ChannelScopeSettings = {
    default: 'all',
    channels: {
      '1': { enabled: false, sub_channels: { '10': true } },
      '2': { sub_channels: { '20': false } },
      '3': { enabled: true },
    },
  };

  it('a sub-channel override wins over the channel flag and the default', () => {
    expect(isChannelTracked(settings, 1, 10)).toBe(true);
    expect(isChannelTracked(settings, 2, 20)).toBe(false);
  });

  it('then the channel enabled flag', () => {
    expect(isChannelTracked(settings, 1)).toBe(false);
    expect(isChannelTracked(settings, 1, 11)).toBe(false);
    expect(isChannelTracked({ ...settings, default: 'none' }, 3, 30)).toBe(true);
  });

  it('then the default: all tracks what is not disabled, none tracks only what is enabled', () => {
    expect(isChannelTracked(settings, 2, 21)).toBe(true);
    expect(isChannelTracked(settings, 99)).toBe(true);
    const none: ChannelScopeSettings = { ...settings, default: 'none' };
    expect(isChannelTracked(none, 99)).toBe(false);
    expect(isChannelTracked(none, 2, 21)).toBe(false);
    expect(isChannelTracked(none, 1, 10)).toBe(true);
  });

  it('merges a patch key by key without dropping other channels or sub-channels', () => {
    const merged = mergeChannelScope(settings, {
      channels: { '1': { sub_channels: { '11': false } }, '4': { enabled: false } },
    });
    expect(merged).toEqual({
      default: 'all',
      channels: {
        '1': { enabled: false, sub_channels: { '10': true, '11': false } },
        '2': { sub_channels: { '20': false } },
        '3': { enabled: true },
        '4': { enabled: false },
      },
    });
    expect(mergeChannelScope(settings, { default: 'none' }).default).toBe('none');
    expect(settings.channels['1']!.sub_channels).toEqual({ '10': true });
  });
});
