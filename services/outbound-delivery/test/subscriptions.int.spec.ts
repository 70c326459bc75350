import { SecretBox } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { DEV_WEBHOOK_SECRET_ENCRYPTION_KEY } from '../src/config.js';
import { as, failureOf } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-subs';
const OTHER = 'tenant-other';

describe('webhook subscriptions', () => {
  const suite = useReceiverSuite({ receiver: false });

  const create = (tenant: string, request: Record<string, unknown>) =>
    as(tenant, () =>
      suite.h.client.call.createSubscription({
        url: '',
        events: [],
        input_violations: [],
        ...request,
      }),
    );

  it('creates one with a whsec_ secret of 32 random bytes, stored only encrypted', async () => {
    const created = await create(TENANT, {
      url: 'http://127.0.0.1:9/hook',
      events: ['product.created', 'sales_order.created', 'product.created'],
      description: 'ERP sync',
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created.subscription).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['product.created', 'sales_order.created'],
      description: 'ERP sync',
      is_active: true,
    });
    const raw = await suite.h.service.mongo
      .collection('subscriptions')
      .findOne({ id: created.subscription!.id });
    expect(JSON.stringify(raw)).not.toContain(created.secret);
    expect(
      new SecretBox(DEV_WEBHOOK_SECRET_ENCRYPTION_KEY).decrypt(raw!.secrets[0].encrypted),
    ).toBe(created.secret);
    const second = await create(TENANT, {
      url: 'http://127.0.0.1:9/b',
      events: ['product.created'],
    });
    expect(second.secret).not.toBe(created.secret);
  });

  it('names the bad event, needs at least one, and reports every bad field at once', async () => {
    const unknown = await failureOf(
      create(TENANT, {
        url: 'http://127.0.0.1:9/x',
        events: ['product.created', 'order.exploded'],
      }),
    );
    expect(unknown.fieldViolations).toEqual([
      {
        field: 'events.1',
        description: 'The event "order.exploded" is not in the webhook event catalog.',
      },
    ]);
    const none = await failureOf(create(TENANT, { url: 'http://127.0.0.1:9/x', events: [] }));
    expect(none.fieldViolations.map((v) => v.field)).toEqual(['events']);
    const many = await failureOf(
      create(TENANT, { url: 'ftp://x', events: ['nope'], description: 'd'.repeat(1001) }),
    );
    expect(many.fieldViolations.map((v) => v.field).sort()).toEqual([
      'description',
      'events.0',
      'url',
    ]);
    const count = await suite.h.service.mongo
      .collection('subscriptions')
      .countDocuments({ tenant_id: TENANT, url: { $in: ['ftp://x', 'http://127.0.0.1:9/x'] } });
    expect(count).toBe(0);
  });

  it('lists, gets, updates and deletes only the tenant own subscriptions, never showing a secret', async () => {
    const { subscription } = await create(TENANT, {
      url: 'http://127.0.0.1:9/crud',
      events: ['customer.created'],
    });
    const id = subscription!.id;
    const got = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
    expect(got.subscription!.url).toBe('http://127.0.0.1:9/crud');
    expect(JSON.stringify(got)).not.toContain('whsec_');

    const page = await as(TENANT, () =>
      suite.h.client.call.listSubscriptions({ page: 1, per_page: 100 }),
    );
    expect(page.subscriptions.map((s) => s.id)).toContain(id);
    expect(JSON.stringify(page)).not.toContain('whsec_');
    const one = await as(TENANT, () =>
      suite.h.client.call.listSubscriptions({ page: 1, per_page: 1 }),
    );
    expect(one.subscriptions).toHaveLength(1);
    expect(one.total).toBe(page.total);

    expect(
      (await failureOf(as(OTHER, () => suite.h.client.call.getSubscription({ id })))).code,
    ).toBe(5);
    expect(
      (await failureOf(as(OTHER, () => suite.h.client.call.deleteSubscription({ id })))).code,
    ).toBe(5);
    expect(
      (
        await failureOf(
          as(OTHER, () =>
            suite.h.client.call.updateSubscription({
              id,
              events: [],
              has_events: false,
              clear_description: false,
              input_violations: [],
              is_active: false,
            }),
          ),
        )
      ).code,
    ).toBe(5);

    const updated = await as(TENANT, () =>
      suite.h.client.call.updateSubscription({
        id,
        url: 'http://127.0.0.1:9/crud2',
        events: ['inventory.adjusted'],
        has_events: true,
        description: 'now described',
        clear_description: false,
        input_violations: [],
      }),
    );
    expect(updated.subscription).toMatchObject({
      url: 'http://127.0.0.1:9/crud2',
      events: ['inventory.adjusted'],
      description: 'now described',
    });
    const bad = await failureOf(
      as(TENANT, () =>
        suite.h.client.call.updateSubscription({
          id,
          url: 'https://user:pw@example.com/',
          events: ['nope'],
          has_events: true,
          clear_description: false,
          input_violations: [],
        }),
      ),
    );
    expect(bad.fieldViolations.map((v) => v.field).sort()).toEqual(['events.0', 'url']);
    const unchanged = await as(TENANT, () => suite.h.client.call.getSubscription({ id }));
    expect(unchanged.subscription!.url).toBe('http://127.0.0.1:9/crud2');

    await as(TENANT, () => suite.h.client.call.deleteSubscription({ id }));
    expect(
      (await failureOf(as(TENANT, () => suite.h.client.call.getSubscription({ id })))).code,
    ).toBe(5);
  });

  it('rotates the secret: a new one once, the old kept only for the overlap', async () => {
    const { subscription, secret } = await create(TENANT, {
      url: 'http://127.0.0.1:9/rot',
      events: ['product.created'],
    });
    const rotated = await as(TENANT, () =>
      suite.h.client.call.rotateSecret({ id: subscription!.id }),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.previous_secret_expires_at!.getTime()).toBeGreaterThan(Date.now());
    const raw = await suite.h.service.mongo
      .collection('subscriptions')
      .findOne({ id: subscription!.id });
    const box = new SecretBox(DEV_WEBHOOK_SECRET_ENCRYPTION_KEY);
    expect(raw!.secrets.map((s: { encrypted: string }) => box.decrypt(s.encrypted))).toEqual([
      rotated.secret,
      secret,
    ]);
    expect(
      (await failureOf(as(OTHER, () => suite.h.client.call.rotateSecret({ id: subscription!.id }))))
        .code,
    ).toBe(5);
  });
});
