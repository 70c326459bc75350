import type { FieldViolation } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import {
  AUTO_TRACK_KEYS,
  channelScopeInput,
  withInputViolations,
  checkApiKey,
  checkChannelScope,
  checkName,
  checkForecastAlertDays,
  checkThreshold,
  fillBooleans,
  mergeBooleans,
} from './instance-settings.js';

const run = (check: (violations: FieldViolation[]) => void) => {
  const violations: FieldViolation[] = [];
  check(violations);
  return violations.map((v) => v.description);
};

describe('instance settings rules', () => {
  it('name: required on create, never blank, at most 255 characters (counted as characters)', () => {
    expect(run((v) => checkName(v, undefined, true))).toEqual(['The name field is required.']);
    expect(run((v) => checkName(v, undefined, false))).toEqual([]);
    expect(run((v) => checkName(v, '  ', false))).toEqual(['The name field is required.']);
    expect(run((v) => checkName(v, 'n'.repeat(255), true))).toEqual([]);
    expect(run((v) => checkName(v, 'n'.repeat(256), true))).toEqual([
      'The name field must not be greater than 255 characters.',
    ]);
    expect(run((v) => checkName(v, '😀'.repeat(255), true))).toEqual([]);
  });

  it('api_key: 8 to 255 characters', () => {
    expect(run((v) => checkApiKey(v, 'k'.repeat(7), true))).toEqual([
      'The api key field must be at least 8 characters.',
    ]);
    expect(run((v) => checkApiKey(v, 'k'.repeat(8), true))).toEqual([]);
    expect(run((v) => checkApiKey(v, 'k'.repeat(255), true))).toEqual([]);
    expect(run((v) => checkApiKey(v, 'k'.repeat(256), true))).toEqual([
      'The api key field must not be greater than 255 characters.',
    ]);
    expect(run((v) => checkApiKey(v, '', false))).toEqual(['The api key field is required.']);
  });

  it('quota_alert_threshold: an integer from 1 to 99', () => {
    for (const bad of [0, 100, -5, 50.5])
      expect(run((v) => checkThreshold(v, bad))).toHaveLength(1);
    for (const good of [1, 80, 99, undefined])
      expect(run((v) => checkThreshold(v, good))).toEqual([]);
  });

  it('quota_forecast_alert_days: whole days 0 (off) to 365', () => {
    for (const bad of [-1, 366, 1.5, Number.NaN])
      expect(run((v) => checkForecastAlertDays(v, bad))).toEqual([
        'The quota forecast alert days field must be between 0 and 365.',
      ]);
    for (const good of [0, 1, 14, 365, undefined])
      expect(run((v) => checkForecastAlertDays(v, good))).toEqual([]);
  });

  it('auto_track_channels: default all/none, integer channel and sub-channel keys', () => {
    expect(
      run((v) =>
        checkChannelScope(v, {
          default_scope: 'all',
          channels: { '1': { enabled: true, sub_channels: { '2': false } } },
        }),
      ),
    ).toEqual([]);
    expect(run((v) => checkChannelScope(v, { default_scope: 'ALL', channels: {} }))).toHaveLength(
      1,
    );
    expect(
      run((v) =>
        checkChannelScope(v, {
          channels: { x: { sub_channels: {} }, '3': { sub_channels: { '0': true } } },
        }),
      ),
    ).toHaveLength(2);
  });

  it('fills missing booleans with true and merges a patch key by key', () => {
    expect(fillBooleans(AUTO_TRACK_KEYS, { rmas: false })).toEqual({
      sales_order_fulfillments: true,
      inbound_shipments: true,
      warehouse_transfer_shipments: true,
      rmas: false,
      vendor_credit_shipments: true,
    });
    const all = fillBooleans(AUTO_TRACK_KEYS, undefined);
    expect(mergeBooleans(all, { inbound_shipments: false, rmas: undefined })).toEqual({
      ...all,
      inbound_shipments: false,
    });
  });

  it('drops absent optional parts when converting channel input', () => {
    expect(
      channelScopeInput({
        channels: {
          '1': { sub_channels: {} },
          '2': { enabled: false, sub_channels: { '20': true } },
        },
      }),
    ).toEqual({ channels: { '1': {}, '2': { enabled: false, sub_channels: { '20': true } } } });
  });
});

describe('withInputViolations', () => {
  it('keeps the type errors and adds the rule violations of the other fields only', () => {
    const input = [{ field: 'name', description: 'The name field must be a string.' }];
    const own = [
      { field: 'name', description: 'The name field is required.' },
      { field: 'api_key', description: 'The api key field must be at least 8 characters.' },
    ];
    expect(withInputViolations(input, own)).toEqual([input[0], own[1]]);
    expect(withInputViolations([], own)).toEqual(own);
  });
});
