import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { productCreatedEntry } from '../../src/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithToken } from '../../src/index.js';
import { PATH, poll, subscriptionHarness } from './subscription-harness.js';

describe('recover through the gateway', () => {
  const h = subscriptionHarness();
  // A receiver that fails until it is mended, recording every delivery id it gets.
  let mended = false;
  const seen: string[] = [];
  const flaky = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      seen.push(request.headers['x-svc-delivery-id'] as string);
      response.writeHead(mended ? 200 : 503).end();
    });
  });
  let flakyUrl = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    flaky.closeAllConnections();
    await new Promise((resolve) => flaky.close(resolve));
  });

  it('sends every failed delivery since a time again, once each, as a job whose progress the API shows', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const created = await h.create(h.owner, { url: flakyUrl, events: ['product.created'] });
    const id = created.body.data.id as number;
    for (const n of [1, 2, 3, 4, 5]) {
      const { type, event } = productCreatedEntry({
        tenantId: h.owner.tenant.id,
        product: { product_id: n },
      });
      await h.publisher.publish(type, event);
    }
    await poll(async () => {
      const log = await h.owner.request('GET', `${PATH}/${id}/deliveries?status=failed`);
      return log.body.total === 5 ? log : undefined;
    });
    expect(seen).toHaveLength(15);

    mended = true;
    const started = await h.owner.request('POST', `${PATH}/${id}/recover`, { since });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ subscription_id: id, found: 5, since });
    const jobId = started.body.data.id as string;
    const done = await poll(async () => {
      const job = await h.owner.request('GET', `${PATH}/${id}/recover/${jobId}`);
      return job.body.data.status === 'completed' && job.body.data.succeeded === 5
        ? job
        : undefined;
    });
    expect(done.body.data).toMatchObject({ found: 5, sent: 5, succeeded: 5, failed: 0 });
    // None doubled: 3 failed attempts and one more for each delivery.
    const counts = new Map<string, number>();
    for (const deliveryId of seen) counts.set(deliveryId, (counts.get(deliveryId) ?? 0) + 1);
    expect([...counts.values()]).toEqual([4, 4, 4, 4, 4]);
  });

  it('answers 422 without since or with a bad one, 404 for another tenant’s subscription or an unknown job', async () => {
    const created = await h.create(h.owner, { url: flakyUrl, events: ['product.created'] });
    const id = created.body.data.id as number;
    for (const body of [{}, { since: 'soon' }, { since: 5 }, { since: '2026-01-01\u0000' }]) {
      const refused = await h.owner.request('POST', `${PATH}/${id}/recover`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.errors).toHaveProperty('since');
    }
    const other = await createTenantWithToken(h.system);
    expect(
      (await other.request('POST', `${PATH}/${id}/recover`, { since: '2026-01-01T00:00:00Z' }))
        .status,
    ).toBe(404);
    expect(
      (await h.owner.request('GET', `${PATH}/${id}/recover/00000000-0000-4000-8000-000000000000`))
        .status,
    ).toBe(404);
  });
});
