import { AUTO_TRACK_KEYS, SIDE_EFFECT_KEYS } from '@inventory/rules';
import type {
  AutoTrackChannelsPatch,
  CreateInstanceRequest,
  UpdateInstanceRequest,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import type { FieldViolation } from '@inventory/contracts/common/v1/errors.js';

/**
 * JSON type checks the proto cannot express (a number where a string belongs,
 * `"yes"` for a boolean). They travel to the service as `input_violations`,
 * which reports them together with its own rules (bounds, required fields), so
 * one 422 names every bad field. Unknown keys are ignored, as everywhere.
 */
class BodyReader {
  readonly errors: Record<string, string[]> = {};

  constructor(readonly body: Record<string, unknown>) {}

  private fail(field: string, what: string) {
    (this.errors[field] ??= []).push(`The ${field.replace(/_/g, ' ')} field ${what}.`);
  }

  /** `null` counts as an empty value, so a required string reports "required". */
  string(source: Record<string, unknown>, key: string, field = key): string | undefined {
    const value = source[key];
    if (value === undefined) return undefined;
    if (value === null) return '';
    if (typeof value !== 'string') return void this.fail(field, 'must be a string');
    // NUL never belongs in a name or key, and some stores and logs truncate at it.
    if (value.includes('\u0000')) return void this.fail(field, 'must not contain NUL characters');
    return value;
  }

  boolean(source: Record<string, unknown>, key: string, field = key): boolean | undefined {
    const value = source[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') return void this.fail(field, 'must be true or false');
    return value;
  }

  integer(source: Record<string, unknown>, key: string, field = key): number | undefined {
    const value = source[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      return void this.fail(field, 'must be an integer');
    return value;
  }

  object(
    source: Record<string, unknown>,
    key: string,
    field = key,
  ): Record<string, unknown> | undefined {
    const value = source[key];
    if (value === undefined) return undefined;
    if (!isObject(value)) return void this.fail(field, 'must be an object');
    return value;
  }

  booleans<K extends string>(
    source: Record<string, unknown>,
    key: string,
    keys: readonly K[],
  ): Partial<Record<K, boolean>> | undefined {
    const object = this.object(source, key);
    if (!object) return undefined;
    const out: Partial<Record<K, boolean>> = {};
    for (const name of keys) {
      const value = this.boolean(object, name, `${key}.${name}`);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  channelScope(source: Record<string, unknown>): AutoTrackChannelsPatch | undefined {
    const scope = this.object(source, 'auto_track_channels');
    if (!scope) return undefined;
    const result: AutoTrackChannelsPatch = { channels: {} };
    const defaultScope = this.string(scope, 'default', 'auto_track_channels.default');
    if (defaultScope !== undefined) result.default_scope = defaultScope;
    const channels = this.object(scope, 'channels', 'auto_track_channels.channels') ?? {};
    for (const [id, entry] of Object.entries(channels)) {
      const path = `auto_track_channels.channels.${id}`;
      if (!isObject(entry)) {
        this.fail(path, 'must be an object');
        continue;
      }
      const enabled = this.boolean(entry, 'enabled', `${path}.enabled`);
      const subs = this.object(entry, 'sub_channels', `${path}.sub_channels`) ?? {};
      const subChannels: Record<string, boolean> = {};
      for (const subId of Object.keys(subs)) {
        const value = this.boolean(subs, subId, `${path}.sub_channels.${subId}`);
        if (value !== undefined) subChannels[subId] = value;
      }
      result.channels[id] = {
        ...(enabled === undefined ? {} : { enabled }),
        sub_channels: subChannels,
      };
    }
    return result;
  }

  violations(): FieldViolation[] {
    return Object.entries(this.errors).flatMap(([field, messages]) =>
      messages.map((description) => ({ field, description })),
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body that is not a JSON object is read as an empty one (every field then reports as missing). */
function reader(body: unknown): BodyReader {
  return new BodyReader(isObject(body) ? body : {});
}

export function readTestBody(body: unknown): {
  apiKey: string | undefined;
  inputViolations: FieldViolation[];
} {
  const r = reader(body);
  const apiKey = r.string(r.body, 'api_key');
  return { apiKey, inputViolations: r.violations() };
}

export function readCreateBody(body: unknown): CreateInstanceRequest {
  const r = reader(body);
  const request: CreateInstanceRequest = {
    name: r.string(r.body, 'name'),
    api_key: r.string(r.body, 'api_key'),
    auto_track: r.booleans(r.body, 'auto_track', AUTO_TRACK_KEYS),
    auto_track_channels: r.channelScope(r.body),
    input_violations: [],
  };
  request.input_violations = r.violations();
  return request;
}

export function readUpdateBody(id: number, body: unknown): UpdateInstanceRequest {
  const r = reader(body);
  const request: UpdateInstanceRequest = {
    id,
    name: r.string(r.body, 'name'),
    api_key: r.string(r.body, 'api_key'),
    is_automatic_sync_enabled: r.boolean(r.body, 'is_automatic_sync_enabled'),
    auto_track: r.booleans(r.body, 'auto_track', AUTO_TRACK_KEYS),
    auto_track_channels: r.channelScope(r.body),
    side_effects: r.booleans(r.body, 'side_effects', SIDE_EFFECT_KEYS),
    quota_alert_threshold: r.integer(r.body, 'quota_alert_threshold'),
    input_violations: [],
  };
  request.input_violations = r.violations();
  return request;
}
