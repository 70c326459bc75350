import { Schema, type Connection, type Model } from 'mongoose';

interface CounterDocument {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDocument>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true } },
  { versionKey: false, collection: 'counters' },
);

function counterModel(connection: Connection): Model<CounterDocument> {
  return (
    (connection.models.Counter as Model<CounterDocument> | undefined) ??
    connection.model<CounterDocument>('Counter', counterSchema)
  );
}

/**
 * Public ids are integers from a per-collection counter; `$inc` on one document
 * is atomic, so concurrent creates never share an id. With `count`, reserves
 * that many consecutive ids in one write and returns the first.
 */
export async function nextSequence(
  connection: Connection,
  name: string,
  count = 1,
): Promise<number> {
  const counter = await counterModel(connection)
    .findOneAndUpdate(
      { _id: name },
      { $inc: { seq: count } },
      { upsert: true, new: true, lean: true },
    )
    .exec();
  return counter!.seq - count + 1;
}
