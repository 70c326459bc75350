import type { Model } from 'mongoose';
import type { TokenRequestDocument } from '../src/store/token-request.js';
import { TokenRequestRepository } from '../src/store/token-request-repository.js';

/**
 * For `bench/` only (package export `@inventory/identity/bench`), never for another
 * project's tests: identity's request-log repository with its model in reach, so the
 * embedded MongoDB's benchmarks measure identity's real schema, indexes and bulk write.
 */
export class TokenRequestRepositoryForBench extends TokenRequestRepository {
  declare readonly model: Model<TokenRequestDocument>;
}

export type { TokenRequestDocument };
