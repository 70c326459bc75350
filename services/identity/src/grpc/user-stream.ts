import { status as GrpcStatus, type ServerDuplexStream } from '@grpc/grpc-js';
import type {
  StreamUsersRequest,
  StreamUsersResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import { AppError, type Logger, type StreamContext } from '@inventory/platform';
import type { GetUsers } from '../use-cases/get-users.js';
import { presentUser } from './mappers.js';

/**
 * `StreamUsers`: batched user look-ups on one long-lived stream per tenant. Each
 * request gets exactly one answer carrying its correlation id; a failed look-up
 * is answered with its error and the stream stays open. On drain the stream
 * ends once every request already received is answered.
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

    const answer = (startedAt: number, response: Partial<StreamUsersResponse>) => {
      pending--;
      context.observe(response.error_code ?? GrpcStatus.OK, performance.now() - startedAt);
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
      getUsers.execute(tenantId, request.user_ids).then(
        (users) =>
          answer(startedAt, {
            correlation_id: request.correlation_id,
            users: users.map(presentUser),
          }),
        (error: unknown) => {
          if (!(error instanceof AppError))
            logger.error({ err: error, tenant_id: tenantId }, 'user look-up on a stream failed');
          answer(startedAt, {
            correlation_id: request.correlation_id,
            users: [],
            error_code: error instanceof AppError ? error.code : GrpcStatus.INTERNAL,
            error_reason: error instanceof AppError ? error.reason : 'internal',
            error_message: error instanceof AppError ? error.message : 'Internal error',
          });
        },
      );
    });
    call.on('end', close);
    call.on('error', () => (closing = true));
    context.draining.addEventListener('abort', close, { once: true });
  };
}
