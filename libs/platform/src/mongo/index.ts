export { connectMongo, ensureIndexes } from './connection.js';
export { nextSequence } from './counter.js';
export { isMongoUnreachable } from './unreachable.js';
export { dropRetiredIndexes, type RetiresIndexes } from './retired-indexes.js';
export { applyRetention, type Retention } from './retention.js';
export {
  StoreWatch,
  storeStalled,
  unlessStoreStalls,
  type StoreHealth,
  type StoreWatchOptions,
} from './store-watch.js';
export { escapeRegex, isDuplicateKeyError, tenantFilter } from './tenant-scope.js';
export {
  TenantScopedRepository,
  type FindOptions,
  type InsertManyOptions,
  type PageOptions,
  type ScopedFilter,
  type TenantOwned,
} from './tenant-repository.js';
