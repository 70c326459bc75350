/**
 * Engine internals that `bench/mongo-embedded` measures directly against mingo alone (no wire,
 * no sockets). Not part of the server's API: nothing but the bench imports this.
 */
export { applyUpdate } from './commands/update-engine.js';
export { validateCommand } from './commands/refusals.js';
export { compileProjection } from './query/projection.js';
export { compileQuery } from './storage/mingo.js';
export { Catalog } from './storage/catalog.js';
export {
  carryUnchangedNumericTypes,
  rememberNumericTypes,
  scanNumericTypes,
  typedForm,
} from './numeric/types.js';
export { applyInt64Operators } from './update/int64.js';
