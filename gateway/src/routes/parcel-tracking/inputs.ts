import {
  AUTO_TRACK_KEYS,
  CARRIER_THRESHOLDS_MAX,
  SIDE_EFFECT_KEYS,
  STALLED_AFTER_HOURS_MAX,
} from '@inventory/rules';
import type {
  AutoTrackChannelsPatch,
  CarrierStalledAfter,
  ShipmentWatchPatch,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
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

const carrierThreshold = {
  type: 'object',
  properties: { carrier_code: { type: 'integer' }, hours: { type: 'integer' } },
  required: ['carrier_code', 'hours'],
};

/**
 * `shipment_watch` (ADR 0218): the stalled threshold, per-carrier thresholds (the list, when
 * given, replaces the stored one) and the stalled and late alert switches. Bounds are the
 * service's; each entry's errors are named by its index.
 */
function shipmentWatch(): InputField<ShipmentWatchPatch | undefined> {
  const object = field.object();
  const whole = field.integer();
  const flag = field.boolean();
  return {
    schema: {
      type: 'object',
      properties: {
        stalled_after_hours: {
          type: 'integer',
          minimum: 1,
          maximum: STALLED_AFTER_HOURS_MAX,
          description:
            'Hours without a new checkpoint after which a shipment in transit is stalled (default 72).',
        },
        carrier_stalled_after_hours: {
          type: 'array',
          maxItems: CARRIER_THRESHOLDS_MAX,
          items: carrierThreshold,
          description:
            "Per-carrier thresholds (carrier codes as in filter[carrier_code]); replaces the instance's list.",
        },
        stalled_alert: {
          type: 'boolean',
          description: 'One in-app alert per shipment the first time it is stalled (default true).',
        },
        late_alert: {
          type: 'boolean',
          description:
            'One in-app alert per shipment the first time it is past its estimated delivery and not delivered (default true).',
        },
      },
    },
    read(value, name, errors) {
      const given = object.read(value, name, errors);
      if (!given) return undefined;
      const patch: ShipmentWatchPatch = {
        carrier_stalled_after_hours: [],
        replace_carrier_stalled_after_hours: false,
      };
      const hours = whole.read(given.stalled_after_hours, `${name}.stalled_after_hours`, errors);
      if (typeof hours === 'number') patch.stalled_after_hours = hours;
      const stalledAlert = flag.read(given.stalled_alert, `${name}.stalled_alert`, errors);
      if (stalledAlert !== undefined) patch.stalled_alert = stalledAlert;
      const lateAlert = flag.read(given.late_alert, `${name}.late_alert`, errors);
      if (lateAlert !== undefined) patch.late_alert = lateAlert;
      const list = given.carrier_stalled_after_hours;
      const listName = `${name}.carrier_stalled_after_hours`;
      if (list === undefined) return patch;
      if (!Array.isArray(list)) {
        addError(errors, listName, `The ${label(listName)} field must be an array.`);
        return patch;
      }
      patch.replace_carrier_stalled_after_hours = true;
      for (const [index, entry] of list.entries()) {
        const path = `${listName}.${index}`;
        if (!isObject(entry)) {
          addError(errors, path, `The ${label(path)} field must be an object.`);
          continue;
        }
        const threshold: Partial<CarrierStalledAfter> = {};
        for (const key of ['carrier_code', 'hours'] as const) {
          if (entry[key] === undefined || entry[key] === null)
            addError(errors, `${path}.${key}`, `The ${label(`${path}.${key}`)} field is required.`);
          const read = whole.read(entry[key] ?? undefined, `${path}.${key}`, errors);
          if (typeof read === 'number') threshold[key] = read;
        }
        if (threshold.carrier_code !== undefined && threshold.hours !== undefined)
          patch.carrier_stalled_after_hours.push(threshold as CarrierStalledAfter);
      }
      return patch;
    },
  };
}

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
    shipment_watch: shipmentWatch(),
    // 0 (off) or 1-365, checked by the service with the other rules (ADR 0235).
    quota_forecast_alert_days: field.integer(),
  },
  { required: true },
);
