import type { FieldViolation } from '@inventory/platform';
import type { ChannelScopeSettings } from './channel-scope.js';
import { FORECAST_ALERT_DAYS_MAX } from './quota-forecast.js';

import { AUTO_TRACK_KEYS, SIDE_EFFECT_KEYS } from '@inventory/rules';

/** The setting keys are the gateway's body fields too: one definition in @inventory/rules. */
export { AUTO_TRACK_KEYS, SIDE_EFFECT_KEYS };
export type AutoTrackSettings = Record<(typeof AUTO_TRACK_KEYS)[number], boolean>;

export type SideEffectSettings = Record<(typeof SIDE_EFFECT_KEYS)[number], boolean>;

export const NAME_MAX = 255;
export const API_KEY_MIN = 8;
export const API_KEY_MAX = 255;
export const DEFAULT_QUOTA_ALERT_THRESHOLD = 80;

/** Missing keys default to true, on create (auto_track) and for side effects. */
export function fillBooleans<K extends string>(
  keys: readonly K[],
  given: Partial<Record<K, boolean | undefined>> | undefined,
): Record<K, boolean> {
  return Object.fromEntries(keys.map((key) => [key, given?.[key] ?? true])) as Record<K, boolean>;
}

/** PATCH semantics: only the keys present change. */
export function mergeBooleans<K extends string>(
  current: Record<K, boolean>,
  patch: Partial<Record<K, boolean | undefined>> | undefined,
): Record<K, boolean> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(patch ?? {}) as Array<[K, boolean | undefined]>)
    if (value !== undefined) merged[key] = value;
  return merged;
}

const human = (field: string) => field.replace(/_/g, ' ');

/** Laravel-style messages, as the rest of the API words them. */
export function checkName(
  violations: FieldViolation[],
  name: string | undefined,
  required: boolean,
): void {
  if (name === undefined || name.trim() === '') {
    if (required || name !== undefined)
      violations.push({ field: 'name', description: 'The name field is required.' });
    return;
  }
  if ([...name].length > NAME_MAX)
    violations.push({
      field: 'name',
      description: `The name field must not be greater than ${NAME_MAX} characters.`,
    });
}

export function checkApiKey(
  violations: FieldViolation[],
  apiKey: string | undefined,
  required: boolean,
): void {
  if (apiKey === undefined || apiKey === '') {
    if (required || apiKey !== undefined)
      violations.push({
        field: 'api_key',
        description: `The ${human('api_key')} field is required.`,
      });
    return;
  }
  const length = [...apiKey].length;
  if (length < API_KEY_MIN)
    violations.push({
      field: 'api_key',
      description: `The api key field must be at least ${API_KEY_MIN} characters.`,
    });
  if (length > API_KEY_MAX)
    violations.push({
      field: 'api_key',
      description: `The api key field must not be greater than ${API_KEY_MAX} characters.`,
    });
}

export function checkThreshold(violations: FieldViolation[], threshold: number | undefined): void {
  if (threshold === undefined) return;
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 99) {
    violations.push({
      field: 'quota_alert_threshold',
      description: 'The quota alert threshold field must be between 1 and 99.',
    });
  }
}

/** 0 (off) or 1-365 whole days (ADR 0235). */
export function checkForecastAlertDays(
  violations: FieldViolation[],
  days: number | undefined,
): void {
  if (days === undefined) return;
  if (!Number.isInteger(days) || days < 0 || days > FORECAST_ALERT_DAYS_MAX) {
    violations.push({
      field: 'quota_forecast_alert_days',
      description: `The quota forecast alert days field must be between 0 and ${FORECAST_ALERT_DAYS_MAX}.`,
    });
  }
}

const ID_KEY = /^[1-9]\d{0,17}$/;

/** auto_track_channels: `default` is all or none; channel and sub-channel keys are integer ids. */
export function checkChannelScope(
  violations: FieldViolation[],
  input:
    | {
        default_scope?: string | undefined;
        channels: Record<
          string,
          { enabled?: boolean | undefined; sub_channels: Record<string, boolean> }
        >;
      }
    | undefined,
): void {
  if (!input) return;
  if (
    input.default_scope !== undefined &&
    input.default_scope !== 'all' &&
    input.default_scope !== 'none'
  ) {
    violations.push({
      field: 'auto_track_channels.default',
      description: 'The selected auto track channels.default is invalid. It must be all or none.',
    });
  }
  for (const [channelId, entry] of Object.entries(input.channels)) {
    if (!ID_KEY.test(channelId)) {
      violations.push({
        field: `auto_track_channels.channels.${channelId}`,
        description: 'Channel keys must be sales channel ids (positive integers).',
      });
      continue;
    }
    for (const subId of Object.keys(entry.sub_channels)) {
      if (!ID_KEY.test(subId)) {
        violations.push({
          field: `auto_track_channels.channels.${channelId}.sub_channels.${subId}`,
          description: 'Sub-channel keys must be sub-channel ids (positive integers).',
        });
      }
    }
  }
}

/** Converts the proto input to the stored shape (absent optional fields dropped). */
export function channelScopeInput(input: {
  default_scope?: string | undefined;
  channels: Record<
    string,
    { enabled?: boolean | undefined; sub_channels: Record<string, boolean> }
  >;
}): { default?: 'all' | 'none'; channels: ChannelScopeSettings['channels'] } {
  // Keys from the request: a map without a prototype keeps `__proto__` a key to refuse.
  const channels = Object.create(null) as ChannelScopeSettings['channels'];
  for (const [id, entry] of Object.entries(input.channels)) {
    channels[id] = {
      ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
      ...(Object.keys(entry.sub_channels).length > 0
        ? { sub_channels: { ...entry.sub_channels } }
        : {}),
    };
  }
  return {
    ...(input.default_scope === undefined
      ? {}
      : { default: input.default_scope as 'all' | 'none' }),
    channels,
  };
}

/**
 * One answer for every bad field: the gateway's type errors first, then this
 * service's rules for the fields that were at least the right type.
 */
export function withInputViolations(
  inputViolations: readonly FieldViolation[],
  violations: readonly FieldViolation[],
): FieldViolation[] {
  const typed = new Set(inputViolations.map((violation) => violation.field));
  return [...inputViolations, ...violations.filter((violation) => !typed.has(violation.field))];
}
