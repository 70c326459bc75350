import type { JetStreamManager } from 'nats';

/**
 * Resolves true once every durable consumer of every JetStream stream has nothing pending or
 * unacknowledged (the events of the work just measured all consumed), false after `capMs`. A
 * row's window ends there, so downstream consumers' work is counted in the row that caused it
 * and never lands in the next one. `except` names durables not waited for (a stopped one).
 */
export async function streamsSettled(
  manager: JetStreamManager,
  { except = [], capMs = 300_000 }: { except?: string[]; capMs?: number } = {},
): Promise<boolean> {
  const deadline = Date.now() + capMs;
  for (;;) {
    let busy = false;
    for (const stream of await manager.streams.list().next()) {
      for (const consumer of await manager.consumers.list(stream.config.name).next()) {
        if (except.includes(consumer.name)) continue;
        if (consumer.num_pending > 0 || consumer.num_ack_pending > 0) busy = true;
      }
    }
    if (!busy) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
