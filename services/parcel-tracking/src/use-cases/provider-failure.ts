import { failedPrecondition, type AppError } from '@inventory/platform';
import { ProviderError } from '../provider/errors.js';

/** A provider failure as the client sees it: 422 with code invalid_key or api_error. */
export function providerFailure(error: unknown): AppError | unknown {
  return error instanceof ProviderError ? failedPrecondition(error.code, error.message) : error;
}
