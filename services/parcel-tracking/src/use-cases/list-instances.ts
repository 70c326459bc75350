import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';

/**
 * The tenant's instances: none, or its one (the singleton), so a client finds it without its id.
 * Stored settings only, no provider call; the live dashboard is GetInstance's.
 */
export class ListInstances {
  constructor(private readonly instances: InstanceRepository) {}

  async execute(tenantId: string): Promise<InstanceDocument[]> {
    const instance = await this.instances.findForTenant(tenantId);
    return instance ? [instance] : [];
  }
}
