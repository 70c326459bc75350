import { createHash } from 'node:crypto';

/** A provider webhook for a fresh tracking number, signed with the instance's key. */
export function signedWebhook(number: string, apiKey: string) {
  const body = JSON.stringify({
    event: 'TRACKING_UPDATED',
    data: {
      number,
      carrier: 3011,
      track_info: {
        latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' },
        latest_event: { time_utc: new Date().toISOString(), description: 'Picked up' },
      },
    },
  });
  const sign = createHash('sha256').update(`${body}/${apiKey}`).digest('hex');
  return { method: 'POST', body, headers: { 'content-type': 'application/json', sign } };
}
