/**
 * Stalled and late shipments (ADR 0218). A shipment in transit whose carrier has reported no
 * new checkpoint for longer than the threshold is stalled; one past its estimated delivery and
 * not delivered is late. Both only for active rows (a stopped row is no longer watched).
 */
export const DEFAULT_STALLED_AFTER_HOURS = 72;

/** The MongoDB conditions of a stalled row at `now`, with the threshold in milliseconds. */
export function stalledConditions(now: Date, thresholdMs: number): Record<string, unknown> {
  return {
    active: true,
    delivery_status: 'in_transit',
    last_event_at: { $lt: new Date(now.getTime() - thresholdMs) },
  };
}

/** The MongoDB conditions of a late row at `now`. */
export function lateConditions(now: Date): Record<string, unknown> {
  return {
    active: true,
    delivered_at: null,
    delivery_status: { $nin: ['delivered', 'expired'] },
    estimated_delivery_at: { $lt: now },
  };
}
