import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Metrics of the platform's own clients and workers (gRPC clients and their breakers, event
 * consumers, the outbox relay). They live in one registry per process that every service's and
 * the gateway's metrics registry includes (see createMetrics), because those parts are built
 * before, and independently of, the runtime that serves /metrics.
 */
export const sharedRegistry = new Registry();

export const grpcClientCalls = new Counter({
  name: 'grpc_client_handled_total',
  help: 'gRPC calls made to other services, by target service, method and status code (circuit_open when the breaker refused the call)',
  labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
  registers: [sharedRegistry],
});

export const grpcClientDuration = new Histogram({
  name: 'grpc_client_handling_seconds',
  help: 'Duration of gRPC calls made to other services, deadline included',
  labelNames: ['grpc_service', 'grpc_method'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15],
  registers: [sharedRegistry],
});

/** 0 closed, 1 half-open (one trial call), 2 open (failing fast). */
export const circuitBreakerState = new Gauge({
  name: 'circuit_breaker_state',
  help: 'State of each circuit breaker: 0 closed, 1 half-open, 2 open',
  labelNames: ['breaker'],
  registers: [sharedRegistry],
});

export const eventsHandled = new Counter({
  name: 'events_consumed_total',
  help: 'Events taken from JetStream by durable consumer and outcome (handled, duplicate, failed, undecodable)',
  labelNames: ['durable', 'subject', 'outcome'],
  registers: [sharedRegistry],
});

export const eventsRedelivered = new Counter({
  name: 'events_redelivered_total',
  help: 'Events JetStream delivered again to a durable consumer (after a failure, a crash or an ack timeout)',
  labelNames: ['durable'],
  registers: [sharedRegistry],
});

export const eventHandlingDuration = new Histogram({
  name: 'event_handling_seconds',
  help: 'Time a consumer spent on one event',
  labelNames: ['durable'],
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
  registers: [sharedRegistry],
});

/** Read at scrape time from each registered source (JetStream consumer info). */
export const consumerPending = new Gauge({
  name: 'events_consumer_pending',
  help: 'Events waiting for a durable consumer: not yet delivered plus delivered and not yet acknowledged',
  labelNames: ['durable'],
  registers: [sharedRegistry],
  async collect() {
    await Promise.all(
      [...pendingSources].map(async ([durable, read]) => {
        const pending = await read().catch(() => undefined);
        if (pending !== undefined) this.set({ durable }, pending);
      }),
    );
  },
});
const pendingSources = new Map<string, () => Promise<number>>();

/** Registers how to read a durable consumer's pending count; returns the unregister. */
export function trackConsumerPending(durable: string, read: () => Promise<number>): () => void {
  pendingSources.set(durable, read);
  return () => {
    if (pendingSources.get(durable) === read) pendingSources.delete(durable);
    consumerPending.remove({ durable });
  };
}

export const outboxPublished = new Counter({
  name: 'outbox_published_total',
  help: 'Outbox records published to JetStream',
  registers: [sharedRegistry],
});

export const outboxPublishFailures = new Counter({
  name: 'outbox_publish_failures_total',
  help: 'Outbox publishes that failed and will be retried',
  registers: [sharedRegistry],
});

export const outboxBacklog = new Gauge({
  name: 'outbox_backlog',
  help: 'Outbox records not yet published (ready, or pending a state change)',
  registers: [sharedRegistry],
});

export const outboxRelayLag = new Gauge({
  name: 'outbox_relay_lag_seconds',
  help: 'Age of the oldest outbox record not yet published (0 when the outbox is empty)',
  registers: [sharedRegistry],
});
