import {
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { currentContext, runWithContext, type RequestContext } from '../logging/request-context.js';
import { AppError, toServiceError } from './errors.js';
import { metadataToContext } from './metadata.js';

/** What a unary handler sees: the decoded request and who is calling. */
export interface CallContext extends RequestContext {
  /** The tenant, required: handlers that need no tenant use `context.tenantId` directly. */
  tenant(): string;
  signal: AbortSignal;
}

export type UnaryHandler<Req, Res> = (request: Req, context: CallContext) => Promise<Res>;

/** A service implementation written as plain async functions; `wrapService` adapts it to grpc-js. */
export type AsyncService<Server> = {
  // The generated server interfaces carry a string index signature; only the named methods count.
  [Method in keyof Server as string extends Method ? never : Method]: Server[Method] extends (
    call: ServerUnaryCall<infer Req, infer Res>,
    callback: sendUnaryData<infer _R>,
  ) => void
    ? UnaryHandler<Req, Res>
    : never;
};

export interface HandlerHooks {
  logger: Logger;
  onCall?: (service: string, method: string, code: GrpcStatus, durationMs: number) => void;
  inFlight: { add(): void; done(): void };
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
 * Turns async handlers into grpc-js callbacks: request context from metadata,
 * AppErrors to status with details, anything unexpected to a generic INTERNAL
 * (the real error is logged, never sent), and in-flight tracking for draining.
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
      call.on('cancelled', () => controller.abort());
      const requestContext = metadataToContext(call.metadata);
      hooks.inFlight.add();
      runWithContext(requestContext, () => {
        const finish = (code: GrpcStatus) => {
          hooks.inFlight.done();
          hooks.onCall?.(serviceName, method, code, performance.now() - started);
        };
        handler(call.request, buildCallContext(requestContext, controller.signal)).then(
          (response) => {
            finish(GrpcStatus.OK);
            callback(null, response);
          },
          (error: unknown) => {
            if (error instanceof AppError) {
              finish(error.code);
              callback(toServiceError(error));
              return;
            }
            hooks.logger.error(
              { err: error, grpc_method: `${serviceName}/${method}`, ...currentContext() },
              'unhandled error in gRPC handler',
            );
            finish(GrpcStatus.INTERNAL);
            callback({ code: GrpcStatus.INTERNAL, details: 'Internal error' });
          },
        );
      });
    };
  }
  return wrapped;
}
