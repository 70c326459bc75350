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

/** The headers of one attempt; `shortName` is the configured neutral name (default `SVC`). */
export function deliveryHeaders(
  shortName: string,
  event: string,
  deliveryId: string,
  signature: string,
): Record<string, string> {
  return {
    [`X-${shortName}-Event`]: event,
    [`X-${shortName}-Delivery-Id`]: deliveryId,
    [`X-${shortName}-Signature`]: signature,
    'User-Agent': `${shortName}-Webhook/1.0`,
    'Content-Type': 'application/json',
  };
}
