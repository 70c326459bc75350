import mongoose from 'mongoose';

/**
 * Some fields of every row of a service's collection, read straight from MongoDB: what the
 * system kept, whatever its API would say about it (a fault run's "nothing acknowledged lost").
 */
export async function storedRows(
  mongoUrl: string,
  dbName: string,
  collection: string,
  fields: string[],
): Promise<Array<Record<string, unknown>>> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
  try {
    return await connection
      .collection(collection)
      .find({}, { projection: Object.fromEntries(fields.map((field) => [field, 1])) })
      .toArray();
  } finally {
    await connection.close();
  }
}
