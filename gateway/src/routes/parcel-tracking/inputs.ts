import { AUTO_TRACK_KEYS, SIDE_EFFECT_KEYS } from '@inventory/rules';
import type { AutoTrackChannelsPatch } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { field } from '../../http/body-fields.js';
import { addError, isObject, label, type InputField } from '../../http/input-field.js';
import { param } from '../../http/param-fields.js';
import { body } from '../../http/route-input.js';

/**
 * The instance bodies' JSON types, which the proto cannot express (a number where a string
 * belongs, `"yes"` for a boolean). Their errors travel to the service as `input_violations`
 * (`deferErrors`), which reports them with its own rules (bounds, required fields), so one 422
 * names every bad field (ADR 0703). Unknown keys are ignored, as everywhere.
 */

/** `{instance}` is an integer id; anything else cannot name a record. */
export const INSTANCE = { instance: param.id('Parcel-tracking instance not found.') };

/** `null` reads as `''`, so a required string reports "required" (the service's rule). */
const text = () => field.string({ nulls: 'empty', refuseControls: true });

const channelEntry = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean' },
    sub_channels: { type: 'object', additionalProperties: { type: 'boolean' } },
  },
};

/** `auto_track_channels`: the default scope and per-channel switches, keyed by channel id. */
function channelScope(): InputField<AutoTrackChannelsPatch | undefined> {
  const object = field.object();
  const defaultScope = text();
  const flag = field.boolean();
  return {
    schema: {
      type: 'object',
      properties: {
        default: defaultScope.schema,
        channels: { type: 'object', additionalProperties: channelEntry },
      },
    },
    read(value, name, errors) {
      const scope = object.read(value, name, errors);
      if (!scope) return undefined;
      // Keys come from the client: maps without a prototype, so `__proto__` stays a key (which
      // the service refuses as not a channel id) instead of replacing the map's prototype.
      const result: AutoTrackChannelsPatch = { channels: Object.create(null) as Channels };
      const given = defaultScope.read(scope.default, `${name}.default`, errors);
      if (given !== undefined) result.default_scope = given;
      const channels = object.read(scope.channels, `${name}.channels`, errors) ?? {};
      for (const [id, entry] of Object.entries(channels)) {
        const path = `${name}.channels.${id}`;
        if (!isObject(entry)) {
          addError(errors, path, `The ${label(path)} field must be an object.`);
          continue;
        }
        const enabled = flag.read(entry.enabled, `${path}.enabled`, errors);
        const subs = object.read(entry.sub_channels, `${path}.sub_channels`, errors) ?? {};
        const subChannels = Object.create(null) as Record<string, boolean>;
        for (const [subId, on] of Object.entries(subs)) {
          const read = flag.read(on, `${path}.sub_channels.${subId}`, errors);
          if (read !== undefined) subChannels[subId] = read;
        }
        result.channels[id] = {
          ...(enabled === undefined ? {} : { enabled }),
          sub_channels: subChannels,
        };
      }
      return result;
    },
  };
}

type Channels = AutoTrackChannelsPatch['channels'];

/** A body that is not a JSON object reads as `{}`: the service then reports the key missing. */
export const TEST_BODY = body({ api_key: text() }, { lenient: true });

export const CREATE_BODY = body(
  {
    name: text(),
    api_key: text(),
    auto_track: field.flags(AUTO_TRACK_KEYS),
    auto_track_channels: channelScope(),
  },
  { required: true },
);

export const UPDATE_BODY = body(
  {
    name: text(),
    api_key: text(),
    is_automatic_sync_enabled: field.boolean(),
    auto_track: field.flags(AUTO_TRACK_KEYS),
    auto_track_channels: channelScope(),
    side_effects: field.flags(SIDE_EFFECT_KEYS),
    quota_alert_threshold: field.integer(),
    // 0 (off) or 1-365, checked by the service with the other rules (ADR 0235).
    quota_forecast_alert_days: field.integer(),
  },
  { required: true },
);
