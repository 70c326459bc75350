import { CommandError } from '../errors.js';
import { unaliasDoc, unaliasText } from './unsafe-keys.js';

/**
 * Runs work on aliased documents and specs (see `aliasDoc`); an error it raises names the fields
 * as the client wrote them.
 */
export function inAliasSpace<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CommandError)
      throw new CommandError(
        err.code,
        err.codeName,
        unaliasText(err.message),
        unaliasDoc(err.extra),
      );
    if (err instanceof Error) err.message = unaliasText(err.message);
    throw err;
  }
}
