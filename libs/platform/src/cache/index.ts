export { SingleFlight } from './single-flight.js';
export { TtlCache, type TtlCacheOptions } from './ttl-cache.js';
export { BoundedMemo } from './bounded-memo.js';
