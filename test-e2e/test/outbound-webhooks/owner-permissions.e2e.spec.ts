import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { domainEventEntry } from '@inventory/events';
import { waitFor } from '@inventory/local-infra';
import { EventPublisher, connectNats } from '@inventory/platform';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminEnv,
  createTenantWithToken,
  npmRunAdmin as admin,
  createUserWithToken,
  productCreatedEntry,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

const PATH = '/api/webhook-subscriptions';

// ADR 0409: a subscription sends an event only while the user it acts for may read it.
describe('outbound webhooks follow their owner’s permissions', { timeout: 240_000 }, () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let nats: NatsConnection;
  let publisher: EventPublisher;
  const received: Array<{ path: string; body: string }> = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString() });
      response.writeHead(200).end();
    });
  });
  let receiverUrl = '';

  beforeAll(async () => {
    system = await startSystem({
      serviceEnv: {
        'outbound-delivery': { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_LOOPBACK: 'true' },
      },
    });
    owner = await createTenantWithToken(system);
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    nats = await connectNats(system.infra.natsUrl, 'e2e-owner-permissions');
    publisher = new EventPublisher(nats.jetstream());
  }, 120_000);
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((done) => receiver.close(done));
    await nats?.drain();
    await system?.stop();
  });

  const publish = async (name: 'sales_order.created' | 'product.created', id: number) => {
    const tenantId = owner.tenant.id;
    // A product created is one event, the catalog record (ADR 0416).
    if (name === 'product.created') {
      const { type, event } = productCreatedEntry({ tenantId, product: { product_id: id } });
      await publisher.publish(type, event);
      return;
    }
    const { type, event } = domainEventEntry({ tenantId, name, data: { id } });
    await publisher.publish(type, event);
  };
  /** outbound-delivery's consumer of identity.user.changed has handled every change so far. */
  const grantsApplied = () =>
    waitFor(async () => {
      const manager = await nats.jetstreamManager();
      const info = await manager.consumers.info('IDENTITY', 'outbound-delivery-owner-grants');
      return info.num_pending + info.num_ack_pending === 0 || undefined;
    }, 60_000);
  const withheld = async () => {
    const port = system.services['outbound-delivery']!.metricsServerPort;
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) =>
        l.startsWith('outbound_webhook_events_withheld_total{event="sales_order.created"'),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('withholds the events its owner lost the permission for, and sends them again once it is back', async () => {
    const member = await createUserWithToken(system, owner.tenant, {
      isOwner: false,
      permissions: ['webhooks:manage', 'orders:read', 'products:read'],
    });
    for (const [events, path] of [
      [['sales_order.created'], '/member-orders'],
      [['product.created'], '/member-products'],
    ] as const)
      expect(
        (await member.request('POST', PATH, { url: `${receiverUrl}${path}`, events })).status,
      ).toBe(201);
    await publish('sales_order.created', 1);
    await waitFor(() => received.find((r) => r.path === '/member-orders'), 60_000);

    const env = adminEnv(system);
    const email = member.user.email;
    const revoked = await admin(
      [
        'set-permissions',
        '--tenant',
        owner.tenant.slug,
        '--email',
        email,
        '--permissions',
        'webhooks:manage,products:read',
      ],
      env,
    );
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({
      permissions: ['webhooks:manage', 'products:read'],
    });

    // The next order event is withheld from the member's subscription (counted), while the
    // product subscription, whose permission stays, keeps being sent.
    await grantsApplied();
    await publish('sales_order.created', 2);
    await waitFor(async () => ((await withheld()) > 0 ? true : undefined), 60_000);
    await publish('product.created', 3);
    await waitFor(() => received.find((r) => r.path === '/member-products'), 60_000);
    const orderIds = () =>
      received
        .filter((r) => r.path === '/member-orders')
        .map((r) => (JSON.parse(r.body) as { data: { id: number } }).data.id);
    const withheldSoFar = await withheld();
    expect(orderIds()).toEqual([1]);

    const restored = await admin(
      [
        'set-permissions',
        '--tenant',
        owner.tenant.slug,
        '--email',
        email,
        '--permissions',
        'webhooks:manage,orders:read,products:read',
      ],
      env,
    );
    expect(restored.code, restored.stderr).toBe(0);
    await grantsApplied();
    await publish('sales_order.created', 4);
    await waitFor(() => orderIds().includes(4) || undefined, 60_000);
    expect(orderIds().filter((id) => id === 2)).toEqual([]);
    expect(await withheld()).toBeGreaterThanOrEqual(withheldSoFar);
  });
});
