import {
  credentials,
  status as GrpcStatus,
  type CallOptions,
  type Client,
  type ClientUnaryCall,
  type Metadata,
  type ServiceError,
} from '@grpc/grpc-js';
import CircuitBreaker from 'opossum';
import { bucketRotation } from './bucket-rotation.js';
import { currentContext, runWithContext } from '../logging/request-context.js';
import { endSpan, isTracing, SpanKind, startSpan, type Span } from '../tracing/tracing.js';
import {
  circuitBreakerState,
  grpcClientCalls,
  grpcClientDuration,
} from '../metrics/shared-metrics.js';
import type { Logger } from 'pino';
import { unlessStalled, type StallHealth } from '../health/stall-watch.js';
import { PeerWatch } from './peer-watch.js';
import { createConnectionGate, type ConnectionGate } from './connection-gate.js';
import { AppError, decodeGrpcError } from './errors.js';
import { contextToMetadata } from './metadata.js';
import { asTransportFailure } from './transport-failure.js';

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** The unary methods of a ts-proto grpc-js client, as promise-returning functions. */
export type PromiseClient<C> = {
  [
    K in keyof C as C[K] extends UnaryMethod<infer _Req, infer _Res> ? K : never
  ]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, options?: { deadlineMs?: number }) => Promise<Res>
    : never;
};

export interface GrpcClientOptions {
  /** Default deadline per call. */
  deadlineMs?: number;
  breaker?: BreakerOptions;
  /**
   * The breaker's `circuit_breaker_state` label (default: the service's name). Two clients of one
   * service with breakers of their own name them apart, or their states overwrite one series.
   */
  breakerName?: string;
  /**
   * HTTP/2 keepalive while calls are in flight: a ping every `timeMs`, and a peer that does not
   * acknowledge within `timeoutMs` (a frozen process: the socket stays open, nothing answers)
   * has its calls failed with UNAVAILABLE at once instead of at their deadlines. A live server
   * acknowledges pings even while its handlers are slow. Off when absent.
   */
  keepalive?: { timeMs: number; timeoutMs: number };
  /**
   * A grpc.health.v1 ping of the server every `pingEveryMs` on a channel of its own: once one
   * waits `stallMs` (a frozen process), the calls in flight are cancelled and new ones refused
   * UNAVAILABLE until a ping is answered (ADR 0744). Faster than keepalive, which a draining
   * server must not be cut by. Off when absent.
   */
  watchPeer?: { pingEveryMs: number; stallMs: number; logger?: Logger };
}

export interface BreakerOptions {
  /** Failures (as a percentage of calls in the window) that open the breaker. */
  errorThresholdPercentage?: number;
  /** How long the breaker stays open before letting a trial call through. */
  resetTimeoutMs?: number;
  /** The minimum number of calls in the window before the breaker may open. */
  volumeThreshold?: number;
  rollingCountTimeoutMs?: number;
  /**
   * A bulkhead: calls are counted by a breaker of their own per key (e.g. the caller's tenant,
   * read from the request context), so one tenant's failing calls open only that tenant's
   * breaker. Calls without a key share the client's default breaker.
   */
  partitionBy?: () => string | undefined;
  /** How many partition breakers are kept (the least recently used is dropped). Default 10,000. */
  maxPartitions?: number;
}

/** Buckets of a breaker's rolling window (opossum's default). */
const ROLLING_BUCKETS = 10;

/**
 * A circuit breaker around calls to one downstream service. Only failures that say the callee is
 * unhealthy count (see INFRASTRUCTURE_CODES); the action's own timeout (a deadline) is the timeout.
 */
export function createCallBreaker<A extends unknown[], R>(
  action: (...args: A) => Promise<R>,
  options: BreakerOptions & { name?: string } = {},
): CircuitBreaker<A, R> {
  const rollingCountTimeout = options.rollingCountTimeoutMs ?? 10_000;
  const breaker = new CircuitBreaker(action, {
    timeout: false,
    errorThresholdPercentage: options.errorThresholdPercentage ?? 50,
    resetTimeout: options.resetTimeoutMs ?? 5_000,
    volumeThreshold: options.volumeThreshold ?? 5,
    rollingCountTimeout,
    // The window's buckets rotate on one timer per process, not one per breaker.
    rotateBucketController: bucketRotation(Math.floor(rollingCountTimeout / ROLLING_BUCKETS)),
    rollingCountBuckets: ROLLING_BUCKETS,
    // Latency percentiles are not used, and keeping them holds every call's duration for the window.
    rollingPercentilesEnabled: false,
    // Nothing listens for the per-second `snapshot` events; each one is a timer and a sum over the
    // window, per breaker, and a client partitioned by tenant keeps up to maxPartitions breakers.
    enableSnapshots: false,
    errorFilter: (error: { code?: unknown }) => !INFRASTRUCTURE_CODES.has(error.code as GrpcStatus),
  });
  if (options.name) {
    const labels = { breaker: options.name };
    circuitBreakerState.set(labels, 0);
    breaker.on('close', () => circuitBreakerState.set(labels, 0));
    breaker.on('halfOpen', () => circuitBreakerState.set(labels, 1));
    breaker.on('open', () => circuitBreakerState.set(labels, 2));
  }
  return breaker;
}

/** Calls through `breaker`; while it is open, fails at once with UNAVAILABLE (reason `circuit_open`). */
export async function fireOrFailFast<A extends unknown[], R>(
  breaker: CircuitBreaker<A, R>,
  target: string,
  ...args: A
): Promise<R> {
  try {
    return await breaker.fire(...args);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EOPENBREAKER')
      throw new AppError(
        GrpcStatus.UNAVAILABLE,
        'circuit_open',
        `${target} is unavailable (circuit open)`,
      );
    throw error;
  }
}

/** Codes that say the callee is unhealthy; business answers (NOT_FOUND, INVALID_ARGUMENT...) are not failures. */
/**
 * The answers that mean the peer is unreachable, slow or overloaded: only these count toward a
 * breaker. A refusal of the request (INVALID_ARGUMENT, NOT_FOUND, …) and an unexpected error in
 * handling it (INTERNAL, UNKNOWN: a bug one request can trigger, answered at once) say nothing
 * about the peer's health, and counting them let one tenant's bad queries open its own breaker.
 */
const INFRASTRUCTURE_CODES = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.RESOURCE_EXHAUSTED,
]);

export interface GrpcClientHandle<C> {
  client: C;
  call: PromiseClient<C>;
  breaker: CircuitBreaker;
  /**
   * With `keepalive`: the connection gate the unary calls go through. Streams opened on `client`
   * bypass `call`, so their owner checks and feeds it (`check()` before, `observe(error)` after).
   */
  gate?: ConnectionGate;
  /**
   * With `watchPeer`: whether the server answers its pings. Streams opened on `client` bypass
   * `call`, so their owner fails their messages by it (`unlessStalled`).
   */
  peer?: StallHealth;
  close(): void;
}

/**
 * Wraps a ts-proto client: every call gets a deadline, the caller's request
 * context as metadata, and goes through one circuit breaker per downstream
 * service. An open breaker fails fast with UNAVAILABLE (reason `circuit_open`).
 */
export function createGrpcClient<C extends Client>(
  ClientClass: new (
    address: string,
    creds: ReturnType<typeof credentials.createInsecure>,
    options?: object,
  ) => C,
  address: string,
  options: GrpcClientOptions = {},
): GrpcClientHandle<C> {
  const client = new ClientClass(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': options.keepalive?.timeMs ?? 30_000,
    ...(options.keepalive
      ? {
          'grpc.keepalive_timeout_ms': options.keepalive.timeoutMs,
          // Reconnect soon after the peer returns, not after back-off grown during the outage.
          'grpc.max_reconnect_backoff_ms': 5_000,
        }
      : {}),
    'grpc.enable_retries': 0,
  });
  const defaultDeadline = options.deadlineMs ?? 5_000;

  const service = (ClientClass as { serviceName?: string }).serviceName ?? address;

  // With keepalive, a lost connection also fails the calls that follow at once (connection-gate.ts).
  const gate = options.keepalive ? createConnectionGate(client.getChannel(), address) : undefined;
  const peer = options.watchPeer
    ? new PeerWatch(service, address, options.watchPeer).start()
    : undefined;
  const peerStalled = () =>
    new AppError(GrpcStatus.UNAVAILABLE, 'unreachable', `${service} is not answering`);

  const invoke = (method: string, request: unknown, deadlineMs: number) => {
    let inFlight: ClientUnaryCall | undefined;
    return unlessStalled(
      peer,
      peerStalled,
      () =>
        new Promise<unknown>((resolve, reject) => {
          gate?.check();
          const fn = (client as unknown as Record<string, UnaryMethod<unknown, unknown>>)[method]!;
          inFlight = fn.call(
            client,
            request,
            contextToMetadata(currentContext()),
            { deadline: Date.now() + deadlineMs },
            (error, response) => {
              if (!error || answeredByServer(error)) peer?.noteProgress();
              if (!error) return resolve(response);
              const failure = asTransportFailure(error);
              gate?.observe(failure);
              reject(failure);
            },
          );
        }),
      () => inFlight?.cancel(),
    );
  };

  const breaker = createCallBreaker(invoke, {
    ...options.breaker,
    name: options.breakerName ?? service,
  });
  const breakers = partitionedBreakers(breaker, invoke, options.breaker);

  const call = new Proxy({} as PromiseClient<C>, {
    get(_target, method: string) {
      return async (request: unknown, callOptions?: { deadlineMs?: number }) => {
        const stopTimer = grpcClientDuration.startTimer({
          grpc_service: service,
          grpc_method: method,
        });
        let code = 'OK';
        const fire = () =>
          fireOrFailFast(
            breakers.current(),
            address,
            method,
            request,
            callOptions?.deadlineMs ?? defaultDeadline,
          );
        let span: Span | undefined;
        try {
          if (!isTracing()) return await fire();
          const context = currentContext();
          span = startSpan(`${service}/${method}`, {
            kind: SpanKind.CLIENT,
            parent: context?.span,
            attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
          });
          // The metadata built for this call carries the client span as the callee's parent.
          return await runWithContext({ requestId: '', ...context, span }, fire);
        } catch (error) {
          const failure = error as { code?: unknown; reason?: unknown };
          code =
            failure.reason === 'circuit_open'
              ? 'circuit_open'
              : typeof failure.code === 'number'
                ? (GrpcStatus[failure.code] ?? String(failure.code))
                : 'UNKNOWN';
          throw error;
        } finally {
          endSpan(span, code === 'OK' ? undefined : code, { 'rpc.grpc.code': code });
          stopTimer();
          grpcClientCalls.inc({ grpc_service: service, grpc_method: method, grpc_code: code });
        }
      };
    },
  });

  return {
    client,
    call,
    breaker,
    gate,
    peer,
    close: () => {
      gate?.close();
      peer?.stop();
      client.close();
      breakers.shutdown();
    },
  };
}

/**
 * The breaker a call goes through: the shared one, or (with `partitionBy`) one per key, made on
 * first use and kept in least-recently-used order up to `maxPartitions`. Partition breakers are
 * not exported as metrics one by one (a label per tenant would be unbounded).
 */
function partitionedBreakers<A extends unknown[], R>(
  shared: CircuitBreaker<A, R>,
  action: (...args: A) => Promise<R>,
  options: BreakerOptions = {},
): { current: () => CircuitBreaker<A, R>; shutdown: () => void } {
  const partitions = new Map<string, CircuitBreaker<A, R>>();
  const shutdown = () => {
    shared.shutdown();
    for (const breaker of partitions.values()) breaker.shutdown();
    partitions.clear();
  };
  const { partitionBy } = options;
  if (!partitionBy) return { current: () => shared, shutdown };
  const limit = options.maxPartitions ?? 10_000;
  const current = () => {
    const key = partitionBy();
    if (key === undefined) return shared;
    let breaker = partitions.get(key);
    if (breaker) partitions.delete(key);
    else {
      breaker = createCallBreaker(action, options);
      if (partitions.size >= limit) {
        const [oldestKey, oldest] = partitions.entries().next().value!;
        oldest.shutdown();
        partitions.delete(oldestKey);
      }
    }
    partitions.set(key, breaker);
    return breaker;
  };
  return { current, shutdown };
}

/** Normalises anything a client call threw into code + reason + violations. */
export function describeCallError(error: unknown) {
  if (error instanceof AppError) {
    return {
      code: error.code,
      message: error.message,
      reason: error.reason,
      fieldViolations: error.fieldViolations,
      metadata: error.metadata,
    };
  }
  return decodeGrpcError(error as Partial<ServiceError>);
}

/** Whether a call's error came from the server's own answer, not from the transport or a timer. */
const answeredByServer = (error: ServiceError) =>
  error.code !== GrpcStatus.UNAVAILABLE &&
  error.code !== GrpcStatus.DEADLINE_EXCEEDED &&
  error.code !== GrpcStatus.CANCELLED &&
  error.code !== GrpcStatus.INTERNAL;
