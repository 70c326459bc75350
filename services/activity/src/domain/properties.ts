/** Why properties travel as JSON text: any shape fits without a proto change (see proto/events/v1/activity.proto). */
export type Properties = Record<string, unknown>;

export type ParsedProperties = { ok: true; properties: Properties } | { ok: false; error: string };

/** Parses `properties_json`: empty means `{}`; anything but a JSON object is refused. */
export function parseProperties(text: string): ParsedProperties {
  if (text.trim() === '') return { ok: true, properties: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'properties_json must be valid JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'properties_json must be a JSON object.' };
  }
  return { ok: true, properties: value as Properties };
}

/**
 * The instance a row belongs to is stored as `properties.integration_instance_id`, the one place
 * the instance log looks for rows whose subject is something else (webhooks, backfills, quota).
 * An explicit id wins over one already in the properties.
 */
export function withInstanceId(
  properties: Properties,
  integrationInstanceId: number | undefined,
): Properties {
  if (integrationInstanceId === undefined || integrationInstanceId === 0) return properties;
  return { ...properties, integration_instance_id: integrationInstanceId };
}
