import { createHash } from 'node:crypto';
import autocannon from 'autocannon';

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

/**
 * `amount` signed webhooks POSTed to `url` over `connections` keep-alive connections, each a new
 * tracking number `<prefix><9 digits>` (so every acknowledged one must end as exactly one row),
 * as fast as the server answers (autocannon). Resolves with autocannon's result.
 */
export function pushWebhooks(options: {
  url: string;
  host: string;
  apiKey: string;
  prefix: string;
  amount: number;
  connections: number;
}): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: options.url,
        amount: options.amount,
        connections: options.connections,
        headers: { host: options.host, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            setupRequest: (request: autocannon.Request) => {
              const number = `${options.prefix}${String(next++).padStart(9, '0')}`;
              const { body, headers } = signedWebhook(number, options.apiKey);
              return { ...request, body, headers: { ...request.headers, ...headers } };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}
