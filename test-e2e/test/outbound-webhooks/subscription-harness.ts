import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventPublisher, connectNats } from '@inventory/platform';
import { waitFor } from '@inventory/local-infra';
import type { NatsConnection } from 'nats';
import { afterAll, beforeAll } from 'vitest';
import {
  createTenantWithToken,
  startSystem,
  type RunningSystem,
  type TenantFixture,
} from '../../src/index.js';

export const PATH = '/api/webhook-subscriptions';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SubscriptionHarness {
  system: RunningSystem;
  owner: TenantFixture;
  nats: NatsConnection;
  /** Publishes domain events as their producers do. */
  publisher: EventPublisher;
  /** Every request the loopback receiver got, in order. */
  received: Received[];
  receiverUrl: string;
  create(tenant: TenantFixture, body: unknown): ReturnType<TenantFixture['request']>;
}

/**
 * The system with outbound delivery allowed to a loopback receiver (fast retries), a tenant
 * with a token, and a NATS publisher: started before a file's tests, stopped after them.
 */
export function subscriptionHarness(): SubscriptionHarness {
  const received: Received[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200).end();
    });
  });
  const h = {
    received,
    receiverUrl: '',
    create: (tenant: TenantFixture, body: unknown) => tenant.request('POST', PATH, body),
  } as SubscriptionHarness;

  beforeAll(async () => {
    h.system = await startSystem({
      serviceEnv: {
        'outbound-delivery': {
          WEBHOOK_ALLOW_HTTP: 'true',
          WEBHOOK_ALLOW_LOOPBACK: 'true',
          WEBHOOK_RETRY_DELAYS_MS: '50,100',
          WEBHOOK_TIMEOUT_MS: '1000',
          DELIVERY_POLL_MS: '25',
        },
      },
    });
    h.owner = await createTenantWithToken(h.system);
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    h.receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    h.nats = await connectNats(h.system.infra.natsUrl, 'e2e-emit');
    h.publisher = new EventPublisher(h.nats.jetstream());
  }, 120_000);
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await h.nats?.drain();
    await h.system?.stop();
  });
  return h;
}

export const poll = <T>(check: () => T | undefined | Promise<T | undefined>): Promise<T> =>
  waitFor(check, 60_000);
