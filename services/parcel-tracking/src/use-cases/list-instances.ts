import type { InstanceDocument, InstanceStore } from '../store/instance-store.js';

/**
 * The tenant's instances: none, or its one (the singleton), so a client finds it without its id.
 * Stored settings only, no provider call; the live dashboard is GetInstance's.
 */
export class ListInstances {
  constructor(private readonly instances: InstanceStore) {}

  async execute(tenantId: string): Promise<InstanceDocument[]> {
    const instance = await this.instances.findForTenant(tenantId);
    return instance ? [instance] : [];
  }
}
