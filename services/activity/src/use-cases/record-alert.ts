import { validationFailed } from '@inventory/platform';
import { validateAlert, type AlertFields } from '../domain/alert.js';
import type { AlertDocument } from '../store/alert.js';
import type { AlertRepository } from '../store/alert-repository.js';

export interface RecordAlertInput extends AlertFields {
  tenantId: string;
  createdAt: Date;
}

/** Stores one alert, at most once per (tenant, key); a key raised again changes nothing. */
export class RecordAlert {
  constructor(private readonly alerts: AlertRepository) {}

  async execute(input: RecordAlertInput): Promise<{ row: AlertDocument; created: boolean }> {
    if (!input.tenantId)
      throw validationFailed([{ field: 'tenant_id', description: 'The tenant is required.' }]);
    const result = validateAlert(input);
    if ('violations' in result) throw validationFailed(result.violations);
    return this.alerts.insertOnce(input.tenantId, {
      ...result.alert,
      created_at: input.createdAt,
    });
  }
}
