import type { JetStreamManager } from 'nats';
import { eventually } from '@inventory/eventually';

/**
 * The way to show that something did NOT happen after an event: wait until the JetStream
 * consumer reports it is done (nothing left to deliver, nothing awaiting an ack), then assert.
 * A consumer acks after its handler returns, so every published event has been handled by then.
 */
export async function consumerDrained(
  manager: JetStreamManager,
  stream: string,
  durable: string,
  timeoutMs = 20_000,
): Promise<void> {
  await eventually(
    async () => {
      const info = await manager.consumers.info(stream, durable);
      if (info.num_pending + info.num_ack_pending !== 0)
        throw new Error(`${info.num_pending} pending, ${info.num_ack_pending} awaiting an ack`);
    },
    { what: `the consumer ${durable} to drain`, timeoutMs },
  );
}
