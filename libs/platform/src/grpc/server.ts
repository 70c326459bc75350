import { Server, ServerCredentials, type ServiceDefinition } from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.js';
import type { StoreHealth } from '../mongo/store-watch.js';
import { wrapService, wrapStreams, type AsyncService, type StreamService } from './handler.js';

export interface ServiceRegistration<Server> {
  /** Fully qualified proto name, e.g. `inventory.identity.v1.IdentityService`; used for health. */
  name: string;
  definition: ServiceDefinition;
  implementation: AsyncService<Server>;
  /** Bidirectional streaming methods, if the service has any. */
  streams?: Partial<StreamService<Server>>;
}

export interface GrpcServerOptions {
  host: string;
  port: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  services: Array<ServiceRegistration<any>>;
  logger: Logger;
  metrics?: Metrics;
  /** The service's MongoDB: calls fail fast (UNAVAILABLE) while it is stalled (ADR 0743). */
  store?: StoreHealth;
}

export interface GrpcServerHandle {
  port: number;
  address: string;
  health: HealthImplementation;
  /** Marks NOT_SERVING, refuses new calls, waits for in-flight ones up to `timeoutMs`, then forces. */
  stop(timeoutMs?: number): Promise<void>;
  inFlight(): number;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const server = new Server({
    'grpc.max_receive_message_length': 8 * 1024 * 1024,
    // Clients keep one HTTP/2 connection per target; ending connections now and then lets
    // callers re-resolve and spread load over replicas added since they connected.
    'grpc.max_connection_age_ms': 5 * 60_000,
    'grpc.max_connection_age_grace_ms': 30_000,
  });
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);

  let inFlight = 0;
  const counter = { add: () => void inFlight++, done: () => void inFlight-- };
  const draining = new AbortController();
  for (const service of options.services) {
    const hooks = {
      logger: options.logger,
      inFlight: counter,
      onCall: options.metrics?.observeGrpcCall,
      draining: draining.signal,
      store: options.store,
    };
    server.addService(service.definition, {
      ...wrapService(service.name, service.implementation, hooks),
      ...(service.streams ? wrapStreams(service.name, service.streams, hooks) : {}),
    });
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(
      `${options.host}:${options.port}`,
      ServerCredentials.createInsecure(),
      (error, boundPort) => (error ? reject(error) : resolve(boundPort)),
    );
  });
  for (const service of options.services) health.setStatus(service.name, 'SERVING');
  health.setStatus('', 'SERVING');
  options.logger.info({ port }, 'gRPC server listening');

  let stopping: Promise<void> | undefined;
  const stop = (timeoutMs = 10_000) => {
    stopping ??= new Promise<void>((resolve) => {
      health.setStatus('', 'NOT_SERVING');
      for (const service of options.services) health.setStatus(service.name, 'NOT_SERVING');
      // Long-lived streams end themselves once told; tryShutdown would otherwise wait for them.
      draining.abort();
      const timer = setTimeout(() => {
        options.logger.warn({ in_flight: inFlight }, 'gRPC drain timed out; forcing shutdown');
        server.forceShutdown();
        resolve();
      }, timeoutMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return stopping;
  };

  return { port, address: `${options.host}:${port}`, health, stop, inFlight: () => inFlight };
}
