import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken, createUserWithToken } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

describe('a subscription’s health through the gateway', () => {
  const h = subscriptionHarness();
  // A receiver that accepts its first request and fails every later one.
  let answered = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      answered += 1;
      response.writeHead(answered === 1 ? 200 : 500).end();
    });
  });
  let receiverUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('reports rate, p95 and last failure of real attempts in both windows, with the access of the subscription’s reads', async () => {
    const created = await h.create(h.owner, {
      url: `${receiverUrl}/health`,
      events: ['sales_order.created'],
    });
    const id = created.body.data.id as number;
    const deliveryStatus = async (deliveryId: string) => {
      const log = await h.owner.request('GET', `${PATH}/${id}/deliveries`);
      const row = (log.body.data as Array<{ delivery_id: string; status: string }>).find(
        (d) => d.delivery_id === deliveryId,
      );
      return row && row.status !== 'pending' ? row.status : undefined;
    };
    const ping = async () => {
      const sent = await h.owner.request('POST', `${PATH}/${id}/test`);
      expect(sent.status).toBe(202);
      return sent.body.data.delivery_id as string;
    };
    const first = await ping();
    expect(await poll(() => deliveryStatus(first))).toBe('succeeded');
    const second = await ping();
    // 500 three times (the specification's 3 attempts): failed.
    expect(await poll(() => deliveryStatus(second))).toBe('failed');

    const health = await h.owner.request('GET', `${PATH}/${id}/health`);
    expect(health.status).toBe(200);
    const window = {
      attempts: 4,
      succeeded: 1,
      success_rate: 0.25,
      p95_latency_ms: expect.any(Number),
      last_failure: {
        attempted_at: expect.any(String),
        response_status: 500,
        error: null,
        delivery_id: second,
      },
    };
    expect(health.body).toEqual({ data: { last_24h: window, last_7d: window } });

    const manageOnly = await createUserWithToken(h.system, h.owner.tenant, {
      scopes: ['webhooks:manage'],
    });
    const refused = await manageOnly.request('GET', `${PATH}/${id}/health`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: 'Token is missing the required scope: orders:read.',
      required_scope: 'orders:read',
    });
    const other = await createTenantWithToken(h.system);
    const theirs = await other.request('GET', `${PATH}/${id}/health`);
    expect(theirs.status).toBe(404);
    expect((await h.owner.request('GET', `${PATH}/999999/health`)).status).toBe(404);
  });
});
