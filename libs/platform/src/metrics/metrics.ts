import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { sharedRegistry } from './shared-metrics.js';

export interface Metrics {
  registry: Registry;
  observeGrpcCall: (service: string, method: string, code: number, durationMs: number) => void;
}

/**
 * How often the event-loop delay monitor samples. prom-client's default, 10 ms, wakes every process
 * 100 times a second even when idle: 7.5 ms of CPU per second per process on our 2-core machine,
 * about 50 µs per request at 1,000 requests/s summed over the system's seven Node processes; at
 * 50 ms it costs 1.7 ms/s (ADR 0712). The `nodejs_eventloop_lag_{min,max,mean,p50,p90,p99}_seconds`
 * gauges report the sampled intervals, this period included (as they included 10 ms before):
 * the loop's lag is the value minus this period, which is what the dashboard plots.
 */
export const EVENT_LOOP_SAMPLE_MS = 50;

/**
 * One registry per process, with default process metrics, gRPC server call metrics and the
 * platform's shared client and worker metrics (gRPC clients, breakers, consumers, outbox).
 */
export function createMetrics(service: string): Metrics {
  const registry = Registry.merge([new Registry(), sharedRegistry]);
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
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
