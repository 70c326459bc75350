import mongoose from 'mongoose';

const { mongo } = mongoose;

/**
 * True when a command failed because MongoDB could not be reached, not because of what it asked:
 * the connection broke mid-command (a killed or restarting server: `MongoNetworkError`, which a
 * cleared pool's errors extend), no server was selectable in time, or the client was closed.
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
    (error instanceof mongoose.Error && /buffering timed out/.test(error.message))
  );
}
