import {
  status as GrpcStatus,
  type handleBidiStreamingCall,
  type sendUnaryData,
  type ServerDuplexStream,
  type ServerUnaryCall,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { currentContext, runWithContext, type RequestContext } from '../logging/request-context.js';
import { unlessStoreStalls, type StoreHealth } from '../mongo/store-watch.js';
import { boundaryError } from './boundary-error.js';
import { AppError, toServiceError } from './errors.js';
import { metadataToContext, metadataTraceCarrier } from './metadata.js';
import { endSpan, isTracing, SpanKind, startSpan } from '../tracing/tracing.js';
import { serverSpanFault } from './span-fault.js';

/** What a unary handler sees: the decoded request and who is calling. */
export interface CallContext extends RequestContext {
  /** The tenant, required: handlers that need no tenant use `context.tenantId` directly. */
  tenant(): string;
  signal: AbortSignal;
}

export type UnaryHandler<Req, Res> = (request: Req, context: CallContext) => Promise<Res>;

type UnaryServerMethod = (call: ServerUnaryCall<never, never>, callback: never) => void;

/**
 * A service's unary methods written as plain async functions; `wrapService`
 * adapts them to grpc-js. Streaming methods go in `StreamService`.
 */
export type AsyncService<Server> = {
  // The generated server interfaces carry a string index signature; only the named methods count.
  [
    Method in keyof Server as string extends Method
      ? never
      : Server[Method] extends UnaryServerMethod
        ? Method
        : never
  ]: Server[Method] extends (
    call: ServerUnaryCall<infer Req, infer Res>,
    callback: sendUnaryData<infer _R>,
  ) => void
    ? UnaryHandler<Req, Res>
    : never;
};

/** What a bidirectional stream handler sees besides the call itself. */
export interface StreamContext extends CallContext {
  /** Aborted when the server starts draining: finish what was asked, then end the stream. */
  draining: AbortSignal;
  /** Records one answered message like a unary call (the `grpc_server_*` metrics, by method). */
  observe(code: GrpcStatus, durationMs: number): void;
  /** The service's MongoDB, for `unlessStoreStalls` around each message's work. */
  store?: StoreHealth;
}

export type StreamHandler<Req, Res> = (
  call: ServerDuplexStream<Req, Res>,
  context: StreamContext,
) => void;

/** A service's bidirectional streaming methods. */
export type StreamService<Server> = {
  [
    Method in keyof Server as string extends Method
      ? never
      : Server[Method] extends handleBidiStreamingCall<never, never>
        ? Server[Method] extends UnaryServerMethod
          ? never
          : Method
        : never
  ]: Server[Method] extends handleBidiStreamingCall<infer Req, infer Res>
    ? StreamHandler<Req, Res>
    : never;
};

export interface HandlerHooks {
  logger: Logger;
  onCall?: (service: string, method: string, code: GrpcStatus, durationMs: number) => void;
  inFlight: { add(): void; done(): void };
  /** Aborted when the server drains; open streams are told through `StreamContext.draining`. */
  draining?: AbortSignal;
  /** The service's MongoDB: while it is stalled, calls are answered UNAVAILABLE at once. */
  store?: StoreHealth;
}

function buildCallContext(requestContext: RequestContext, signal: AbortSignal): CallContext {
  return {
    ...requestContext,
    signal,
    tenant() {
      if (!requestContext.tenantId) {
        throw new AppError(
          GrpcStatus.INVALID_ARGUMENT,
          'tenant_missing',
          'x-tenant-id metadata is required',
        );
      }
      return requestContext.tenantId;
    },
  };
}

/**
 * Turns async handlers into grpc-js callbacks: request context from metadata, failures to
 * status as `boundaryError` answers them (details for AppErrors, UNAVAILABLE for an unreachable
 * MongoDB, a generic INTERNAL for anything else: logged, never sent), and in-flight tracking for
 * draining.
 */
export function wrapService<Server>(
  serviceName: string,
  implementation: AsyncService<Server>,
  hooks: HandlerHooks,
): UntypedServiceImplementation {
  const wrapped: UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(implementation) as Array<
    [string, UnaryHandler<unknown, unknown>]
  >) {
    wrapped[method] = (
      call: ServerUnaryCall<unknown, unknown>,
      callback: sendUnaryData<unknown>,
    ) => {
      const started = performance.now();
      const controller = new AbortController();
      let answered = false;
      // grpc-js also emits 'cancelled' after each call it has answered (its listeners' clean-up):
      // only a call still being handled is aborted, so an answered one makes no AbortError (a
      // DOMException with its stack, about 2% of a service's CPU per call).
      call.on('cancelled', () => {
        if (!answered) controller.abort();
      });
      const requestContext = metadataToContext(call.metadata);
      if (isTracing())
        requestContext.span = startSpan(`${serviceName}/${method}`, {
          kind: SpanKind.SERVER,
          remote: metadataTraceCarrier(call.metadata),
          attributes: { 'rpc.system': 'grpc', 'rpc.service': serviceName, 'rpc.method': method },
        });
      hooks.inFlight.add();
      runWithContext(requestContext, () => {
        // The first answer wins: a call answered because the store stalled drops its handler's
        // late result (the handler sees `signal` aborted, as it would for a cancelled call).
        const reply = (
          code: GrpcStatus,
          error: Partial<ServiceError> | null,
          response?: unknown,
        ) => {
          answered = true;
          hooks.inFlight.done();
          hooks.onCall?.(serviceName, method, code, performance.now() - started);
          endSpan(requestContext.span, serverSpanFault(code), { 'rpc.grpc.status_code': code });
          callback(error as ServiceError | null, response);
        };
        unlessStoreStalls(
          hooks.store,
          () => handler(call.request, buildCallContext(requestContext, controller.signal)),
          () => controller.abort(),
        ).then(
          (response) => reply(GrpcStatus.OK, null, response),
          (error: unknown) => {
            const answer = boundaryError(error, hooks.logger, {
              grpc_method: `${serviceName}/${method}`,
              ...currentContext(),
            });
            if (answer) reply(answer.code, toServiceError(answer));
            else
              reply(GrpcStatus.INTERNAL, { code: GrpcStatus.INTERNAL, details: 'Internal error' });
          },
        );
      });
    };
  }
  return wrapped;
}

/**
 * Adapts bidirectional stream handlers: request context from the stream's
 * metadata (fixed for its life), and a `draining` signal so a long-lived stream
 * ends when the server shuts down instead of holding the drain up.
 */
export function wrapStreams<Server>(
  serviceName: string,
  streams: Partial<StreamService<Server>>,
  hooks: HandlerHooks,
): UntypedServiceImplementation {
  const wrapped: UntypedServiceImplementation = {};
  for (const [method, handler] of Object.entries(streams) as Array<
    [string, StreamHandler<unknown, unknown>]
  >) {
    wrapped[method] = (call: ServerDuplexStream<unknown, unknown>) => {
      const controller = new AbortController();
      call.on('cancelled', () => controller.abort());
      const requestContext = metadataToContext(call.metadata);
      const draining = hooks.draining
        ? AbortSignal.any([hooks.draining, controller.signal])
        : controller.signal;
      runWithContext(requestContext, () => {
        try {
          handler(call, {
            ...buildCallContext(requestContext, controller.signal),
            draining,
            observe: (code, durationMs) => hooks.onCall?.(serviceName, method, code, durationMs),
            store: hooks.store,
          });
        } catch (error) {
          const answer = boundaryError(error, hooks.logger, {
            grpc_method: `${serviceName}/${method}`,
          });
          call.emit(
            'error',
            answer
              ? toServiceError(answer)
              : { code: GrpcStatus.INTERNAL, details: 'Internal error' },
          );
        }
      });
    };
  }
  return wrapped;
}
