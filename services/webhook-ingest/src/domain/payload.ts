/** What can be read from an inbound body without processing it (processing is a later job). */
export interface PayloadSummary {
  payload: Record<string, unknown> | null;
  event_type: string;
  tracking_number: string;
}

export function summarizePayload(rawBody: string): PayloadSummary {
  try {
    const parsed: unknown = JSON.parse(rawBody);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return { payload: null, event_type: '', tracking_number: '' };
    const body = parsed as { event?: unknown; data?: { number?: unknown } };
    return {
      payload: parsed as Record<string, unknown>,
      event_type: typeof body.event === 'string' ? body.event : '',
      tracking_number: typeof body.data?.number === 'string' ? body.data.number : '',
    };
  } catch {
    return { payload: null, event_type: '', tracking_number: '' };
  }
}
