import { validationFailed, type FieldViolation } from '@inventory/platform';
import { checkApiKey, withInputViolations } from '../domain/instance-settings.js';
import type { ProviderQuota } from '../provider/client.js';
import { providerFailure, type Deps } from './deps.js';

/** Checks a key with the provider and reports its quota; nothing is saved. */
export class TestApiKey {
  constructor(private readonly deps: Pick<Deps, 'provider'>) {}

  async execute(
    apiKey: string | undefined,
    inputViolations: readonly FieldViolation[] = [],
  ): Promise<ProviderQuota> {
    const own: FieldViolation[] = [];
    checkApiKey(own, apiKey, true);
    const violations = withInputViolations(inputViolations, own);
    if (violations.length > 0) throw validationFailed(violations);
    try {
      return await this.deps.provider.getQuota(apiKey!);
    } catch (error) {
      throw providerFailure(error);
    }
  }
}
