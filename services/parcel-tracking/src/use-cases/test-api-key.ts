import { validationFailed, type FieldViolation } from '@inventory/platform';
import { checkApiKey } from '../domain/instance-settings.js';
import type { ProviderQuota } from '../provider/client.js';
import { providerFailure, type Deps } from './deps.js';

/** Checks a key with the provider and reports its quota; nothing is saved. */
export class TestApiKey {
  constructor(private readonly deps: Pick<Deps, 'provider'>) {}

  async execute(apiKey: string | undefined): Promise<ProviderQuota> {
    const violations: FieldViolation[] = [];
    checkApiKey(violations, apiKey, true);
    if (violations.length > 0) throw validationFailed(violations);
    try {
      return await this.deps.provider.getQuota(apiKey!);
    } catch (error) {
      throw providerFailure(error);
    }
  }
}
