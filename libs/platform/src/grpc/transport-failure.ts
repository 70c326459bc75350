import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { AppError } from './errors.js';

/**
 * A call that ended without the server's status: grpc-js makes one up when the connection goes
 * under it, mostly UNAVAILABLE ("Connection dropped"), but CANCELLED when a dropped connection
 * reaches the stream as a cancel before the drop is noticed, and INTERNAL ("Received RST_STREAM
 * with code …", "Call ended without gRPC status") for a stream reset or closed without trailers
 * (`subchannel-call.js`). Our clients never cancel a call and our servers send INTERNAL only with
 * "Internal error", so these mean the peer went away: UNAVAILABLE (reason `unreachable`, as the
 * connection gate's), which callers retry and the gateway answers 503, instead of a 500. Anything
 * else is returned as is.
 */
export function asTransportFailure(error: ServiceError): ServiceError | AppError {
  const madeUp =
    error.code === GrpcStatus.CANCELLED ||
    (error.code === GrpcStatus.INTERNAL && /^Received RST_STREAM/.test(error.details ?? ''));
  return madeUp
    ? new AppError(GrpcStatus.UNAVAILABLE, 'unreachable', `${error.details} (connection lost)`)
    : error;
}
