import { calculateObjectSize, type Document } from 'bson';
import { CommandError } from '../errors.js';

/** MongoDB's BSONObjMaxUserSize: no stored document may be larger. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/** The insert path answers BadValue (2), as mongod's insert does; `size` is the document's BSON length. */
export function assertInsertSize(size: number): void {
  if (size > MAX_DOCUMENT_BYTES)
    throw new CommandError(
      2,
      'BadValue',
      `object to insert too large. size in bytes: ${size}, max size: ${MAX_DOCUMENT_BYTES}`,
    );
}

/** An update (or upsert) whose result outgrows the limit is BSONObjectTooLarge (10334). */
export function assertUpdatedSize(doc: Document): void {
  if (calculateObjectSize(doc) > MAX_DOCUMENT_BYTES)
    throw new CommandError(
      10334,
      'BSONObjectTooLarge',
      `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`,
    );
}
