import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { as, waitFor } from './harness.js';
import type { ReceivedRequest } from './receiver.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-kept';

/**
 * What the sender keeps by receiver URL (its parse and address check, the redacted URL) and by
 * secret ciphertext (the HMAC keys, ADR 0745) is never what a change leaves behind: the delivery
 * after a rotation, an expired overlap or a new URL follows the change, after deliveries that
 * filled those caches with the old values.
 */
describe('kept per receiver URL and per secret', () => {
  const standardHeaders = (request: ReceivedRequest) => ({
    'webhook-id': request.headers['webhook-id'] as string,
    'webhook-timestamp': request.headers['webhook-timestamp'] as string,
    'webhook-signature': request.headers['webhook-signature'] as string,
  });

  describe('with the default overlap', () => {
    const suite = useReceiverSuite({ resetReceiver: true });

    it('signs the delivery after a rotation with the new secret, and both during the overlap', async () => {
      const { id, secret: oldSecret } = await suite.subscribe(TENANT, '/rotated');
      await suite.h.publish(TENANT, 'sales_order.created', { n: 1 });
      const before = await waitFor(() => suite.requestsTo('/rotated')[0], 'the first delivery');
      expect(
        await verify(oldSecret, before.body, before.headers['x-svc-signature'] as string),
      ).toBe(true);

      const { secret: newSecret } = await as(TENANT, () =>
        suite.h.client.call.rotateSecret({ id }),
      );
      await suite.h.publish(TENANT, 'sales_order.created', { n: 2 });
      const after = await waitFor(
        () => suite.requestsTo('/rotated')[1],
        'the delivery after rotating',
      );
      const svc = after.headers['x-svc-signature'] as string;
      expect(await verify(newSecret, after.body, svc)).toBe(true);
      expect(await verify(oldSecret, after.body, svc)).toBe(false);
      const standard = standardHeaders(after);
      expect(standard['webhook-signature'].split(' ')).toHaveLength(2);
      for (const secret of [newSecret, oldSecret])
        expect(new Webhook(secret).verify(after.body, standard)).toMatchObject({
          event: 'sales_order.created',
        });
    });

    it('sends the delivery after a URL change to the new URL, and logs that URL redacted', async () => {
      const { id } = await suite.subscribe(TENANT, '/old?token=first');
      await suite.h.publish(TENANT, 'sales_order.created', { n: 'old' });
      await waitFor(() => suite.requestsTo('/old?token=first')[0], 'the delivery to the old URL');

      await suite.update(TENANT, id, { url: `${suite.receiver.url}/new?token=second` });
      await suite.h.publish(TENANT, 'sales_order.created', { n: 'new' });
      const moved = await waitFor(() => suite.requestsTo('/new?token=second')[0], 'the new URL');
      expect(JSON.parse(moved.body)).toMatchObject({ data: { n: 'new' } });
      expect(suite.requestsTo('/old?token=first')).toHaveLength(1);

      const logged = await suite.succeeded(TENANT, id, 2);
      expect(logged.map((d) => d.attempts[0]!.request_url).sort()).toEqual([
        `${suite.receiver.url}/new?token=%5Bredacted%5D`,
        `${suite.receiver.url}/old?token=%5Bredacted%5D`,
      ]);
    });
  });

  describe('with an overlap that is over at once', () => {
    const suite = useReceiverSuite({ env: { WEBHOOK_SECRET_OVERLAP_MS: '1' } });

    it('stops signing with the rotated-out secret at the next delivery', async () => {
      const { id, secret: oldSecret } = await suite.subscribe(TENANT, '/expired');
      await suite.h.publish(TENANT, 'sales_order.created', { n: 1 });
      await waitFor(() => suite.receiver.requests[0], 'the first delivery');

      const { secret: newSecret } = await as(TENANT, () =>
        suite.h.client.call.rotateSecret({ id }),
      );
      await suite.h.publish(TENANT, 'sales_order.created', { n: 2 });
      const after = await waitFor(() => suite.receiver.requests[1], 'the delivery after rotating');
      const standard = standardHeaders(after);
      expect(standard['webhook-signature'].split(' ')).toHaveLength(1);
      expect(new Webhook(newSecret).verify(after.body, standard)).toMatchObject({
        event: 'sales_order.created',
      });
      expect(() => new Webhook(oldSecret).verify(after.body, standard)).toThrow();
    });
  });
});
