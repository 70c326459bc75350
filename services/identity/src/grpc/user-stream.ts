import { status as GrpcStatus, type ServerDuplexStream } from '@grpc/grpc-js';
import type {
  StreamUsersRequest,
  StreamUsersResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import {
  boundaryError,
  endSpan,
  isTracing,
  serverSpanFault,
  SpanKind,
  startSpan,
  unlessStoreStalls,
  type Logger,
  type Span,
  type StreamContext,
} from '@inventory/platform';
import type { GetUsers } from '../use-cases/get-users.js';
import { presentUser } from './mappers.js';

const SPAN_NAME = 'inventory.identity.v1.IdentityService/StreamUsers';
/**
 * `StreamUsers`: batched user look-ups on one long-lived stream per tenant. Each
 * request gets exactly one answer carrying its correlation id; a failed look-up
 * is answered with its error and the stream stays open. On drain the stream
 * ends once every request already received is answered. A message that carries
 * the gateway's `traceparent` gets a server span of its own (ADR 0711): the
 * stream's metadata, fixed for its life, cannot say which request it serves.
 */
export function streamUsers(getUsers: GetUsers, logger: Logger) {
  return (
    call: ServerDuplexStream<StreamUsersRequest, StreamUsersResponse>,
    context: StreamContext,
  ): void => {
    const tenantId = context.tenant();
    let pending = 0;
    let closing = false;
    const endIfIdle = () => {
      if (closing && pending === 0 && !call.writableEnded) call.end();
    };
    const close = () => {
      closing = true;
      endIfIdle();
    };

    const answer = (
      startedAt: number,
      span: Span | undefined,
      response: Partial<StreamUsersResponse>,
    ) => {
      pending--;
      const code = response.error_code ?? GrpcStatus.OK;
      context.observe(code, performance.now() - startedAt);
      if (span)
        endSpan(span, serverSpanFault(code), {
          'rpc.grpc.status_code': code,
        });
      if (!call.writableEnded && !call.destroyed)
        call.write({
          users: [],
          error_code: 0,
          error_reason: '',
          error_message: '',
          correlation_id: 0,
          ...response,
        });
      endIfIdle();
    };

    call.on('data', (request: StreamUsersRequest) => {
      if (closing) return;
      pending++;
      const startedAt = performance.now();
      const span =
        request.traceparent && isTracing()
          ? startSpan(SPAN_NAME, {
              kind: SpanKind.SERVER,
              remote: (key) => (key === 'traceparent' ? request.traceparent : undefined),
              attributes: {
                'rpc.system': 'grpc',
                'rpc.service': 'inventory.identity.v1.IdentityService',
                'rpc.method': 'StreamUsers',
              },
            })
          : undefined;
      // A stalled store answers at once, as a unary call would (ADR 0743).
      unlessStoreStalls(context.store, () => getUsers.execute(tenantId, request.user_ids)).then(
        (users) =>
          answer(startedAt, span, {
            correlation_id: request.correlation_id,
            users: users.map(presentUser),
          }),
        (error: unknown) => {
          const failure = boundaryError(error, logger, {
            grpc_method: 'StreamUsers',
            tenant_id: tenantId,
          });
          answer(startedAt, span, {
            correlation_id: request.correlation_id,
            users: [],
            error_code: failure?.code ?? GrpcStatus.INTERNAL,
            error_reason: failure?.reason ?? 'internal',
            error_message: failure?.message ?? 'Internal error',
          });
        },
      );
    });
    call.on('end', close);
    call.on('error', () => (closing = true));
    context.draining.addEventListener('abort', close, { once: true });
  };
}
