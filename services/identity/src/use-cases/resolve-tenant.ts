import { notFound } from '@inventory/platform';
import type { TenantWithDomains } from '../store/tenant.js';
import type { TenantRepository } from '../store/tenant-repository.js';

export class ResolveTenant {
  constructor(private readonly tenants: TenantRepository) {}

  async execute(host: string): Promise<TenantWithDomains> {
    const found = await this.tenants.findByHost(host.trim().toLowerCase().replace(/\.$/, ''));
    if (!found) throw notFound('No tenant answers on this host.');
    return found;
  }
}
