import mongoose from 'mongoose';

/**
 * One text field of every row of a service's collection, read straight from MongoDB: what the
 * system kept, whatever its API would say about it (a fault run's "nothing acknowledged lost").
 */
export async function storedBodies(
  mongoUrl: string,
  dbName: string,
  collection: string,
  field: string,
): Promise<string[]> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
  try {
    const rows = await connection
      .collection(collection)
      .find({}, { projection: { [field]: 1 } })
      .toArray();
    return rows.map((row) => String(row[field]));
  } finally {
    await connection.close();
  }
}
