import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sharedRegistry } from './shared-metrics.js';

export interface Metrics {
  registry: Registry;
  observeGrpcCall: (service: string, method: string, code: number, durationMs: number) => void;
}

/**
 * One registry per process, with default process metrics, gRPC server call metrics and the
 * platform's shared client and worker metrics (gRPC clients, breakers, consumers, outbox).
 */
export function createMetrics(service: string): Metrics {
  const registry = Registry.merge([new Registry(), sharedRegistry]);
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: 'grpc_server_handled_total',
    help: 'gRPC calls handled, by method and status code',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'gRPC call duration',
    labelNames: ['grpc_service', 'grpc_method'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  return {
    registry,
    observeGrpcCall: (grpcService, method, code, durationMs) => {
      calls.inc({ grpc_service: grpcService, grpc_method: method, grpc_code: String(code) });
      duration.observe({ grpc_service: grpcService, grpc_method: method }, durationMs / 1000);
    },
  };
}

export interface MetricsServerHandle {
  port: number;
  stop(): Promise<void>;
}

/** Serves `GET /metrics` in the Prometheus text format on its own port. */
export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
): Promise<MetricsServerHandle> {
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/metrics') {
      registry.metrics().then(
        (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
        () => response.writeHead(500).end(),
      );
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  // A port in use must fail the start with a clear error, not crash the process later.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
