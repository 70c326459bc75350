import mongoose from 'mongoose';

const { mongo } = mongoose;

/**
 * Node's own errors for a connection the server dropped. The driver wraps most of them in a
 * MongoNetworkError, but a command written in the instant after a killed server's FIN arrived,
 * before the socket closes, fails in `socket.write` with Node's raw `EPIPE` ("This socket has
 * been ended by the other party"), which the driver passes through unwrapped.
 */
const DROPPED_CONNECTION_CODES = new Set(['EPIPE', 'ECONNRESET']);

/**
 * True when a command failed because MongoDB could not be reached, not because of what it asked:
 * the connection broke mid-command (a killed or restarting server: `MongoNetworkError`, which a
 * cleared pool's errors extend, or the raw socket error above), no server was selectable in
 * time, or the client was closed.
 * A bulk write (`insertMany`) wraps such an error in a MongoBulkWriteError without write errors,
 * the original in its `errorResponse`. Mongoose fails a command it buffered while disconnected
 * with a plain MongooseError after `bufferTimeoutMS`; its message is the only sign of that case.
 */
export function isMongoUnreachable(error: unknown): boolean {
  if (error instanceof mongo.MongoBulkWriteError)
    return [error.writeErrors].flat().length === 0 && isMongoUnreachable(error.errorResponse);
  return (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoNotConnectedError ||
    error instanceof mongo.MongoTopologyClosedError ||
    error instanceof mongoose.Error.MongooseServerSelectionError ||
    (error instanceof mongoose.Error && /buffering timed out/.test(error.message)) ||
    isDroppedConnection(error)
  );
}

function isDroppedConnection(error: unknown): boolean {
  if (!(error instanceof Error) || error instanceof mongo.MongoError) return false;
  const { code } = error as NodeJS.ErrnoException;
  return code !== undefined && DROPPED_CONNECTION_CODES.has(code);
}
