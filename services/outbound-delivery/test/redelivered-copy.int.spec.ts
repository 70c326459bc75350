import { waitFor } from '@inventory/eventually';
import { describe, expect, it } from 'vitest';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-redelivered-copy';
const FAN_OUT = { stream: 'DOMAIN', durable: 'outbound-delivery-fan-out' };
/** Longer than the harness's ack wait (`DELIVERY_LEASE_MS`, 3 s), as a frozen process would be. */
const FREEZE_MS = 4_500;

/** Stops this process's event loop outright (the replica and its heartbeats with it). */
const freezeProcess = (ms: number) =>
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

// An event whose ack wait passes while a batch holds it (the replica frozen) comes back to the
// same replica as a copy in another batch. The copy waits for the original's batch; when that
// batch fails, the copy must fail with it: it is the same JetStream message, and acking it would
// ack the event that was never stored.
describe('an event redelivered while its first batch still holds it', () => {
  const suite = useReceiverSuite();

  it(
    'is delivered once that batch fails, not acked with the copy',
    { timeout: 60_000 },
    async () => {
      await suite.subscribe(TENANT, '/copy');
      const consumer = () =>
        suite.h.service.jetstreamManager.consumers.info(FAN_OUT.stream, FAN_OUT.durable);
      // The fan-out's read of the subscriptions is held, then fails (a MongoDB call that hangs).
      await suite.h.service.mongo
        .getClient()
        .db('admin')
        .command({
          configureFailPoint: 'failCommand',
          mode: { times: 1 },
          data: {
            failCommands: ['find'],
            namespace: `${suite.h.service.mongo.name}.subscriptions`,
            blockConnection: true,
            blockTimeMS: FREEZE_MS + 3_000,
            errorCode: 8,
          },
        });
      await suite.h.publish(TENANT, 'sales_order.created', { n: 'copy' });
      // Taken by the replica: the info's answer comes after the event on the same connection, and
      // a turn later its batch has sent the read.
      await waitFor(async () => (await consumer()).num_ack_pending === 1, 'the event taken');
      await new Promise((resolve) => setImmediate(resolve));
      freezeProcess(FREEZE_MS);
      await waitFor(async () => (await consumer()).num_redelivered === 1, 'the copy delivered');

      await waitFor(
        () => suite.receiver.requests.some((request) => JSON.parse(request.body).data.n === 'copy'),
        { what: 'the event delivered after its first batch failed', timeoutMs: 30_000 },
      );
      expect(suite.receiver.requests).toHaveLength(1);
    },
  );
});
