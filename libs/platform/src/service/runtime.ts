import type { Connection } from 'mongoose';
import type { JetStreamClient, JetStreamManager, NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import {
  startGrpcServer,
  type GrpcServerHandle,
  type ServiceRegistration,
} from '../grpc/server.js';
import { stopAll } from '../lifecycle/shutdown.js';
import { createLogger } from '../logging/logger.js';
import { createMetrics, startMetricsServer, type Metrics } from '../metrics/metrics.js';
import { connectMongo, ensureIndexes } from '../mongo/connection.js';
import { StoreWatch } from '../mongo/store-watch.js';
import { connectNats } from '../nats/connection.js';
import { startConsumer, type ConsumerOptions } from '../nats/consumer.js';
import { Outbox, startOutboxRelay, type OutboxRelayHandle } from '../nats/outbox.js';
import { ProcessedEventStore } from '../nats/processed-events.js';
import { EventPublisher } from '../nats/publisher.js';
import { ensureStream, type StreamSpec } from '../nats/streams.js';
import { startTracing, type TracingEnv, type TracingHandle } from '../tracing/tracing.js';

/** The variables every service's config carries (see `serviceEnv`). */
export interface ServiceRuntimeConfig extends TracingEnv {
  LOG_LEVEL: string;
  MONGO_URL: string;
  NATS_URL: string;
  GRPC_HOST: string;
  GRPC_PORT: number;
  METRICS_PORT: number;
  SHUTDOWN_TIMEOUT_MS: number;
  STORE_STALL_MS?: number;
  STORE_PING_MS?: number;
}

export interface ServiceRuntimeOptions {
  /** Service name: logger name, metrics label, NATS connection name, default database name. */
  name: string;
  config: ServiceRuntimeConfig;
  dbName?: string;
  /** Streams this service publishes to; declared in code at start-up. */
  streams?: StreamSpec[];
  logger?: Logger;
}

type ConsumerSpec<T> = Omit<
  ConsumerOptions<T>,
  'jetstream' | 'manager' | 'logger' | 'processed'
> & { idempotent?: boolean };

/**
 * What a service's bootstrap wires its use cases onto: logger, metrics, its own
 * database, NATS (publisher, outbox relay, idempotent consumers) and the gRPC
 * server. `stop()` tears down in the safe order: stop serving and drain calls,
 * stop consumers and the relay, then close connections.
 */
export class ServiceRuntime {
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Span export (OTEL_EXPORTER_OTLP_ENDPOINT); `enabled` false when no endpoint is set. */
  tracing: TracingHandle = startTracing('', {});
  grpc?: GrpcServerHandle;
  private readonly stoppers: Array<() => Promise<unknown>> = [];
  private closers: Array<() => Promise<unknown>> = [];
  private relay?: OutboxRelayHandle;

  readonly options: ServiceRuntimeOptions;
  readonly mongo: Connection;
  readonly nats: NatsConnection;
  readonly jetstream: JetStreamClient;
  readonly jetstreamManager: JetStreamManager;
  readonly publisher: EventPublisher;
  readonly outbox: Outbox;
  readonly processed: ProcessedEventStore;
  /** Whether `mongo` answers: the gRPC server fails calls fast while it does not. */
  readonly store: StoreWatch;
  private readonly metricsPort: { stop(): Promise<void>; port: number };

  private constructor(parts: {
    options: ServiceRuntimeOptions;
    mongo: Connection;
    nats: NatsConnection;
    jetstream: JetStreamClient;
    jetstreamManager: JetStreamManager;
    publisher: EventPublisher;
    outbox: Outbox;
    processed: ProcessedEventStore;
    store: StoreWatch;
    logger: Logger;
    metricsPort: { stop(): Promise<void>; port: number };
    metrics: Metrics;
  }) {
    this.options = parts.options;
    this.mongo = parts.mongo;
    this.nats = parts.nats;
    this.jetstream = parts.jetstream;
    this.jetstreamManager = parts.jetstreamManager;
    this.publisher = parts.publisher;
    this.outbox = parts.outbox;
    this.processed = parts.processed;
    this.store = parts.store;
    this.logger = parts.logger;
    this.metricsPort = parts.metricsPort;
    this.metrics = parts.metrics;
  }

  static async start(options: ServiceRuntimeOptions): Promise<ServiceRuntime> {
    const { config, name } = options;
    const logger = options.logger ?? createLogger({ service: name, level: config.LOG_LEVEL });
    const metrics = createMetrics(name);
    const mongo = await connectMongo(
      config.MONGO_URL,
      options.dbName ?? name.replace(/-/g, '_'),
      logger,
    );
    const stalled = new Gauge({
      name: 'mongo_store_stalled',
      help: '1 while this service fails calls fast because MongoDB does not answer its pings',
      registers: [metrics.registry],
    });
    const store = await StoreWatch.start(config.MONGO_URL, {
      stallMs: config.STORE_STALL_MS,
      pingEveryMs: config.STORE_PING_MS,
      logger,
      onChange: (isStalled) => stalled.set(isStalled ? 1 : 0),
    });
    const nats = await connectNats(config.NATS_URL, name, logger);
    const jetstreamManager = await nats.jetstreamManager();
    for (const stream of options.streams ?? []) await ensureStream(jetstreamManager, stream);
    const jetstream = nats.jetstream();
    const outbox = new Outbox(mongo);
    const processed = new ProcessedEventStore(mongo);
    const metricsServer = await startMetricsServer(
      metrics.registry,
      config.GRPC_HOST,
      config.METRICS_PORT,
    );
    const tracing = startTracing(name, config);
    const runtime = new ServiceRuntime({
      options,
      mongo,
      nats,
      jetstream,
      jetstreamManager,
      publisher: new EventPublisher(jetstream),
      outbox,
      processed,
      store,
      logger,
      metricsPort: metricsServer,
      metrics,
    });
    runtime.tracing = tracing;
    runtime.closers = [
      () => nats.drain(),
      () => store.stop(),
      () => mongo.close(),
      () => metricsServer.stop(),
      () => tracing.shutdown(),
    ];
    return runtime;
  }

  /**
   * The one way a service starts: the runtime, then `wire` (stores, use cases,
   * `serve`, consumers, relay). When wiring fails part-way (a second connection, a
   * port in use) everything already started is stopped before the error goes on,
   * so a failed start leaves no connection or port behind. The wiring returns
   * nothing: tests reach a service from outside (its gRPC API, the bus, the
   * runtime), never through what its bootstrap built (docs/CONVENTIONS.md).
   */
  static async run(
    options: ServiceRuntimeOptions,
    wire: (runtime: ServiceRuntime) => Promise<void>,
  ): Promise<ServiceRuntime> {
    const runtime = await ServiceRuntime.start(options);
    try {
      await wire(runtime);
      return runtime;
    } catch (error) {
      await runtime
        .stop()
        .catch((stopError: unknown) =>
          runtime.logger.error({ err: stopError }, 'stopping after a failed start failed'),
        );
      throw error;
    }
  }

  get metricsServerPort(): number {
    return this.metricsPort.port;
  }

  /** Publishes outbox records as they become ready (and orphaned ones after a grace period). */
  startOutboxRelay(): void {
    this.relay ??= startOutboxRelay({
      outbox: this.outbox,
      publisher: this.publisher,
      logger: this.logger,
    });
    const relay = this.relay;
    this.stoppers.push(() => relay.stop());
  }

  async consume<T>(spec: ConsumerSpec<T>): Promise<void> {
    const { idempotent = true, ...rest } = spec;
    // Its unique index is what makes a claim exclusive: in place before the first event.
    if (idempotent) await this.processed.init();
    const handle = await startConsumer({
      ...rest,
      jetstream: this.jetstream,
      manager: this.jetstreamManager,
      logger: this.logger,
      processed: idempotent ? this.processed : undefined,
    });
    this.stoppers.push(() => handle.stop());
  }

  /** Registers a background task (poller, scheduler) to stop before connections close. */
  onStop(stop: () => Promise<unknown>): void {
    this.stoppers.push(stop);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async serve(services: Array<ServiceRegistration<any>>): Promise<GrpcServerHandle> {
    await ensureIndexes(this.mongo);
    this.grpc = await startGrpcServer({
      host: this.options.config.GRPC_HOST,
      port: this.options.config.GRPC_PORT,
      services,
      logger: this.logger,
      metrics: this.metrics,
      store: this.store,
    });
    return this.grpc;
  }

  async stop(): Promise<void> {
    const grpc = this.grpc;
    await stopAll([
      grpc ? () => grpc.stop(this.options.config.SHUTDOWN_TIMEOUT_MS) : undefined,
      ...this.stoppers.reverse(),
      ...this.closers,
    ]);
  }
}
