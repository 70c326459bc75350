import { notFound } from '@inventory/platform';
import type { TenantRepository, TenantWithDomains } from '../store/tenants.js';

export class ResolveTenant {
  constructor(private readonly tenants: TenantRepository) {}

  async execute(host: string): Promise<TenantWithDomains> {
    const found = await this.tenants.findByHost(host.trim().toLowerCase().replace(/\.$/, ''));
    if (!found) throw notFound('No tenant answers on this host.');
    return found;
  }
}
