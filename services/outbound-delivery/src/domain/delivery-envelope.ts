export interface DeliveryEnvelopeInput {
  event: string;
  deliveryId: string;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/**
 * The delivery body, serialised once: exactly `{event, delivery_id, occurred_at, data}` in that
 * order. The stored string is what every attempt sends and what every signature covers.
 */
export function serialiseEnvelope(input: DeliveryEnvelopeInput): string {
  return JSON.stringify({
    event: input.event,
    delivery_id: input.deliveryId,
    occurred_at: input.occurredAt.toISOString(),
    data: input.data,
  });
}

/** A producer's `data_json` as the envelope's `data`: a JSON object, or `{}` when it is not one. */
export function parseEventData(dataJson: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(dataJson || '{}');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export interface AttemptSignatures {
  /** The specification's one `sha256=` value (the current secret). */
  svc: string;
  /** Standard Webhooks' `webhook-signature` (every live secret). */
  standard: string;
  /** Unix seconds the standard signature covers. */
  timestampSeconds: number;
}

/**
 * The headers of one attempt; `shortName` is the configured neutral name (default `SVC`). The
 * specification's three `X-SVC-*` headers, and beside them Standard Webhooks' `webhook-id`
 * (the delivery id), `webhook-timestamp` and `webhook-signature`, so any of that standard's
 * libraries verifies a delivery and refuses a replay (ADR 0410).
 */
export function deliveryHeaders(
  shortName: string,
  event: string,
  deliveryId: string,
  signatures: AttemptSignatures,
): Record<string, string> {
  const names = headerNamesOf(shortName);
  // Names built once and assigned in order: a literal with keys computed per delivery showed
  // in the profile (ADR 0745). The order is the one headers are sent in.
  const headers: Record<string, string> = {};
  headers[names.event] = event;
  headers[names.deliveryId] = deliveryId;
  headers[names.signature] = signatures.svc;
  headers['webhook-id'] = deliveryId;
  headers['webhook-timestamp'] = String(signatures.timestampSeconds);
  headers['webhook-signature'] = signatures.standard;
  headers['User-Agent'] = names.userAgent;
  headers['Content-Type'] = 'application/json';
  return headers;
}

interface HeaderNames {
  event: string;
  deliveryId: string;
  signature: string;
  userAgent: string;
}

/** The names built once per short name (a process has one, tests a few). */
const headerNames = new Map<string, HeaderNames>();

function headerNamesOf(shortName: string): HeaderNames {
  let names = headerNames.get(shortName);
  if (!names) {
    names = {
      event: `X-${shortName}-Event`,
      deliveryId: `X-${shortName}-Delivery-Id`,
      signature: `X-${shortName}-Signature`,
      userAgent: `${shortName}-Webhook/1.0`,
    };
    headerNames.set(shortName, names);
  }
  return names;
}
