import { status as GrpcStatus } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../src/domain/attempt-request.js';
import { as } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-detail';

/** One delivery's payload and each attempt's request, redacted (ADR 0419). */
describe('GetDelivery', () => {
  // The first attempt fails, the second succeeds: two attempts, each with its own request.
  let calls = 0;
  const suite = useReceiverSuite({
    respond: (_request, response) => response.writeHead(++calls === 1 ? 500 : 200).end(),
  });

  it('shows the payload as sent and each attempt’s request with its credentials redacted', async () => {
    const { id } = await suite.subscribe(TENANT, '/in?source=erp&token=s3cret', [
      'customer.created',
    ]);
    await suite.h.publish(TENANT, 'customer.created', { name: 'Ada' });
    const [listed] = await suite.settled(TENANT, id, 1);
    expect(listed!.status).toBe('succeeded');
    expect(listed!.attempts).toHaveLength(2);
    expect(listed!.payload).toBeUndefined();

    const { delivery } = await as(TENANT, () =>
      suite.h.client.call.getDelivery({ subscription_id: id, delivery_id: listed!.id }),
    );
    const sent = suite.receiver.requests.filter((request) => request.path.startsWith('/in'));
    expect(sent).toHaveLength(2);
    expect(delivery!.payload).toBe(sent[1]!.body);
    expect(JSON.parse(delivery!.payload!)).toMatchObject({ event: 'customer.created' });
    for (const [index, attempt] of delivery!.attempts.entries()) {
      expect(attempt.request_url).toBe(
        `${suite.receiver.url}/in?source=erp&token=${encodeURIComponent(REDACTED)}`,
      );
      const headers = attempt.request_headers;
      expect(headers['webhook-id']).toBe(listed!.id);
      expect(headers['X-SVC-Event']).toBe('customer.created');
      // Each attempt is signed when sent: its timestamp is the one the receiver got.
      expect(headers['webhook-timestamp']).toBe(sent[index]!.headers['webhook-timestamp']);
      expect(headers['X-SVC-Signature']).toBe(`sha256=${REDACTED}`);
      expect(headers['webhook-signature']).toBe(`v1,${REDACTED}`);
      expect(JSON.stringify(headers)).not.toContain(
        (sent[index]!.headers['x-svc-signature'] as string).slice('sha256='.length),
      );
    }
    expect(delivery!.attempts.map((attempt) => attempt.response_status)).toEqual([500, 200]);
    expect((await suite.deliveriesOf(TENANT, id)).deliveries[0]!.attempts[0]!.request_url).toBe(
      delivery!.attempts[0]!.request_url,
    );
  });

  it('is NOT_FOUND for another tenant, another subscription and an unknown id', async () => {
    const { id } = await suite.subscribe(TENANT, '/other', ['customer.created']);
    await suite.h.publish(TENANT, 'customer.created', { name: 'Grace' });
    const [listed] = await suite.settled(TENANT, id, 1);
    const { id: sibling } = await suite.subscribe(TENANT, '/sibling', ['customer.created']);
    for (const [tenant, subscriptionId, deliveryId] of [
      ['tenant-elsewhere', id, listed!.id],
      [TENANT, sibling, listed!.id],
      [TENANT, id, '00000000-0000-4000-8000-000000000000'],
      [TENANT, id, 'not-a-uuid'],
    ] as const) {
      await expect(
        as(tenant, () =>
          suite.h.client.call.getDelivery({
            subscription_id: subscriptionId,
            delivery_id: deliveryId,
          }),
        ),
      ).rejects.toMatchObject({ code: GrpcStatus.NOT_FOUND });
    }
  });
});
