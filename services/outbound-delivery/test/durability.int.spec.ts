import { domainEventEntry } from '@inventory/events';
import { freePort, spawnServiceMain } from '@inventory/local-infra';
import { connectNats, EventPublisher } from '@inventory/platform';
import { describe, expect, it } from 'vitest';
import { as, clientAt, settledDeliveries, subscribe, waitFor, type Harness } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-durable';

/** A replica in its own process, to be killed with SIGKILL. */
async function spawnDoomed(h: Harness) {
  const grpcPort = await freePort();
  const doomed = await spawnServiceMain('services/outbound-delivery/src/main.ts', {
    env: {
      ...h.env,
      LOG_LEVEL: 'info',
      WEBHOOK_TIMEOUT_MS: '60000',
      DELIVERY_LEASE_MS: '2000',
      GRPC_PORT: String(grpcPort),
    },
  });
  return { doomed, grpcPort };
}

// Each test stops or kills the service, so each has a system and a receiver of its own.
describe('durable schedule', () => {
  const suite = useReceiverSuite({
    // Long enough waits that the retry is still scheduled when the replica goes away.
    env: { WEBHOOK_RETRY_DELAYS_MS: '1500,1500', DELIVERY_LEASE_MS: '2000' },
    perTest: true,
  });

  it(
    'a scheduled retry survives a restart of the service and keeps its delivery id',
    { timeout: 120_000 },
    async () => {
      let answer = 503;
      suite.receiver.respond((_r, response) => response.writeHead(answer).end());
      const { id } = await suite.subscribe(TENANT, '/restart');
      await suite.h.publish(TENANT, 'sales_order.created', { n: 'restart' });
      await waitFor(() => suite.receiver.requests.length === 1, 'the first attempt');
      await suite.h.stopReplicas();
      answer = 200;
      const restarted = await suite.h.startReplica();
      await waitFor(() => suite.receiver.requests.length === 2, 'the retry after the restart');
      const [first, second] = suite.receiver.requests;
      expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
      expect(second!.body).toBe(first!.body);
      const client = clientAt(restarted.grpc!.address, 10_000);
      try {
        const deliveries = await waitFor(async () => {
          const { deliveries } = await as(TENANT, () =>
            client.call.listDeliveries({ subscription_id: id, page: 1, per_page: 10 }),
          );
          return deliveries[0]?.status === 'succeeded' ? deliveries : undefined;
        }, 'the delivery to succeed');
        expect(deliveries[0]!.attempts.map((a) => a.response_status)).toEqual([503, 200]);
      } finally {
        client.close();
      }
    },
  );

  it(
    'a kill -9 in the middle of an attempt loses nothing: another replica repeats it with the same delivery id',
    { timeout: 120_000 },
    async () => {
      // The first attempt hangs until the process that made it is dead.
      suite.receiver.respond((_r, response) => {
        if (suite.receiver.requests.length > 1) response.writeHead(200).end();
      });
      const { doomed, grpcPort } = await spawnDoomed(suite.h);
      const client = clientAt(`127.0.0.1:${grpcPort}`, 10_000);
      let subscriptionId = 0;
      try {
        subscriptionId = (
          await subscribe({ ...suite.h, client }, TENANT, `${suite.receiver.url}/kill`)
        ).id;
        // Only the doomed process runs until the kill: the in-process replicas are stopped.
        await suite.h.stopReplicas();
        await as(TENANT, () => client.call.sendTestPing({ subscription_id: subscriptionId }));
        await waitFor(() => suite.receiver.requests.length === 1, 'the attempt in flight');
      } finally {
        client.close();
        doomed.child.kill('SIGKILL');
      }
      const survivor = await suite.h.startReplica();
      await waitFor(() => suite.receiver.requests.length === 2, 'the repeated attempt');
      const [first, second] = suite.receiver.requests;
      expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
      expect(second!.body).toBe(first!.body);
      const survivorClient = clientAt(survivor.grpc!.address, 10_000);
      try {
        const [delivery] = await settledDeliveries(
          { ...suite.h, client: survivorClient },
          TENANT,
          subscriptionId,
          1,
        );
        expect(delivery!.status).toBe('succeeded');
      } finally {
        survivorClient.close();
      }
    },
  );

  it(
    "a kill -9 in the middle of a catalog event's first attempt loses nothing: the event comes back and the attempt is repeated with the same delivery id, in one row",
    { timeout: 120_000 },
    async () => {
      // The first attempt hangs until the process that made it is dead.
      suite.receiver.respond((_r, response) => {
        if (suite.receiver.requests.length > 1) response.writeHead(200).end();
      });
      const { id } = await suite.subscribe(TENANT, '/kill-event');
      // Only the doomed process consumes the event until the kill.
      await suite.h.stopReplicas();
      const { doomed } = await spawnDoomed(suite.h);
      const nats = await connectNats(suite.h.env.NATS_URL!, 'durability-test-publisher');
      try {
        const { type, event } = domainEventEntry({
          tenantId: TENANT,
          name: 'sales_order.created',
          data: { n: 'kill-event' },
        });
        await new EventPublisher(nats.jetstream()).publish(type, event);
        await waitFor(() => suite.receiver.requests.length === 1, 'the attempt in flight');
      } finally {
        doomed.child.kill('SIGKILL');
        await nats.drain();
      }
      const survivor = await suite.h.startReplica();
      await waitFor(() => suite.receiver.requests.length === 2, 'the repeated attempt');
      const [first, second] = suite.receiver.requests;
      expect(second!.headers['x-svc-delivery-id']).toBe(first!.headers['x-svc-delivery-id']);
      expect(second!.body).toBe(first!.body);
      const client = clientAt(survivor.grpc!.address, 10_000);
      try {
        const [delivery] = await settledDeliveries({ ...suite.h, client }, TENANT, id, 1);
        expect(delivery!.status).toBe('succeeded');
        expect(delivery!.id).toBe(first!.headers['x-svc-delivery-id']);
      } finally {
        client.close();
      }
    },
  );
});
