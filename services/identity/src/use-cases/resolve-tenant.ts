import type { Tenant } from '@inventory/contracts/identity/v1/identity.js';
import { notFound } from '@inventory/platform';
import type { UseCaseDeps } from './deps.js';
import { presentTenant } from './present.js';

export class ResolveTenant {
  constructor(private readonly deps: UseCaseDeps) {}

  async execute(host: string): Promise<Tenant> {
    const found = await this.deps.store.tenants.findByHost(
      host.trim().toLowerCase().replace(/\.$/, ''),
    );
    if (!found) throw notFound('No tenant answers on this host.');
    return presentTenant(found.tenant, found.domains);
  }
}
