import {
  alreadyExists,
  isDuplicateKeyError,
  validationFailed,
  type FieldViolation,
} from '@inventory/platform';
import type { WebhookTokenRepository } from '../store/webhook-token-repository.js';

/** Adds a token to the central registry, owned by the caller's tenant. */
export class RegisterToken {
  constructor(private readonly tokens: WebhookTokenRepository) {}

  async execute(
    tenantId: string,
    token: string,
    provider: string,
    instanceId: number,
  ): Promise<void> {
    const violations: FieldViolation[] = [];
    if (!/^wh_[A-Za-z0-9_-]{32,}$/.test(token))
      violations.push({
        field: 'token',
        description: 'The token must start with wh_ followed by at least 32 URL-safe characters.',
      });
    if (!/^[a-z0-9-]{1,64}$/.test(provider))
      violations.push({ field: 'provider', description: 'The provider must be a path segment.' });
    if (!Number.isInteger(instanceId) || instanceId < 1)
      violations.push({
        field: 'integration_instance_id',
        description: 'The integration instance id must be a positive integer.',
      });
    if (violations.length > 0) throw validationFailed(violations);
    try {
      await this.tokens.register(tenantId, token, provider, instanceId);
    } catch (error) {
      if (isDuplicateKeyError(error))
        throw alreadyExists('The webhook token is already registered.');
      throw error;
    }
  }
}
