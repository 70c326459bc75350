import { validationFailed, type FieldViolation } from '@inventory/platform';
import { checkApiKey, withInputViolations } from '../domain/instance-settings.js';
import type { ProviderClient, ProviderQuota } from '../provider/client.js';
import { providerFailure } from './provider-failure.js';

/** Checks a key with the provider and reports its quota; nothing is saved. */
export class TestApiKey {
  constructor(private readonly provider: ProviderClient) {}

  async execute(
    apiKey: string | undefined,
    inputViolations: readonly FieldViolation[] = [],
  ): Promise<ProviderQuota> {
    const own: FieldViolation[] = [];
    checkApiKey(own, apiKey, true);
    const violations = withInputViolations(inputViolations, own);
    if (violations.length > 0) throw validationFailed(violations);
    try {
      return await this.provider.getQuota(apiKey!);
    } catch (error) {
      throw providerFailure(error);
    }
  }
}
