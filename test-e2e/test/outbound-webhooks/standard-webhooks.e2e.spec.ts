import { verify } from '@octokit/webhooks-methods';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { productCreatedEntry } from '../../src/index.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATH, poll, subscriptionHarness, type Received } from './subscription-harness.js';

/** The three headers a Standard Webhooks library reads, as the receiver got them. */
const standardHeaders = (request: Received) => ({
  'webhook-id': request.headers['webhook-id'] as string,
  'webhook-timestamp': request.headers['webhook-timestamp'] as string,
  'webhook-signature': request.headers['webhook-signature'] as string,
});

/** What the official library says about a request: the parsed body, or its refusal's message. */
const verdict = (secret: string, body: string, headers: Record<string, string>) => {
  try {
    return new Webhook(secret).verify(body, headers) as unknown;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.message;
    throw error;
  }
};

describe('catalog deliveries verified by the official Standard Webhooks library', () => {
  const h = subscriptionHarness();
  afterEach(() => vi.useRealTimers());

  const emitProduct = async (id: number) => {
    const { type, event } = productCreatedEntry({
      tenantId: h.owner.tenant.id,
      product: { product_id: id, sku: `SKU-${id}` },
    });
    await h.publisher.publish(type, event);
  };

  it('accepts a real delivery; refuses a tampered body, a wrong secret and the same request replayed after the tolerance', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/standard`,
      events: ['product.created'],
    });
    const { secret } = created.body.data as { secret: string };
    await emitProduct(11);
    const request = await poll(() => h.received.find((r) => r.path === '/standard'));
    const headers = standardHeaders(request);
    expect(headers['webhook-id']).toBe(request.headers['x-svc-delivery-id']);
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    expect(verdict(secret, request.body, headers)).toEqual(JSON.parse(request.body));
    expect(verdict(secret, request.body, headers)).toMatchObject({
      event: 'product.created',
      data: { id: 11, sku: 'SKU-11' },
    });
    expect(verdict(secret, request.body.replace('SKU-11', 'SKU-12'), headers)).toBe(
      'No matching signature found',
    );
    const otherSecret = (
      await h.create(h.owner, { url: `${h.receiverUrl}/other`, events: ['product.created'] })
    ).body.data.secret as string;
    expect(verdict(otherSecret, request.body, headers)).toBe('No matching signature found');
    // The same bytes received again six minutes later: the library's 5-minute tolerance refuses
    // the replay, and moving the timestamp forward breaks the signature instead.
    const sentAt = Number(headers['webhook-timestamp']) * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(sentAt + 6 * 60_000);
    expect(verdict(secret, request.body, headers)).toBe('Message timestamp too old');
    const moved = { ...headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) };
    expect(verdict(secret, request.body, moved)).toBe('No matching signature found');
  });

  it('during a rotation grace period a catalog delivery verifies with both secrets, and X-SVC-Signature stays one value of the new one', async () => {
    const created = await h.create(h.owner, {
      url: `${h.receiverUrl}/grace`,
      events: ['product.created'],
    });
    const { id, secret: oldSecret } = created.body.data as { id: number; secret: string };
    const rotated = await h.owner.request('POST', `${PATH}/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret as string;
    expect(Date.parse(rotated.body.data.previous_secret_expires_at as string)).toBeGreaterThan(
      Date.now(),
    );
    await emitProduct(21);
    const request = await poll(() => h.received.find((r) => r.path === '/grace'));
    const headers = standardHeaders(request);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [newSecret, oldSecret])
      expect(verdict(secret, request.body, headers)).toMatchObject({ data: { id: 21 } });
    const otherSecret = (
      await h.create(h.owner, { url: `${h.receiverUrl}/other`, events: ['product.created'] })
    ).body.data.secret as string;
    expect(verdict(otherSecret, request.body, headers)).toBe('No matching signature found');
    expect(verdict(oldSecret, `${request.body} `, headers)).toBe('No matching signature found');

    const svc = request.headers['x-svc-signature'] as string;
    expect(svc).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(await verify(newSecret, request.body, svc)).toBe(true);
    expect(await verify(oldSecret, request.body, svc)).toBe(false);
  });
});
