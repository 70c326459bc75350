import { notFound } from '@inventory/platform';
import type { InstanceStore } from '../store/instance-store.js';

/** Whether the tenant has this instance; no provider call, so it is cheap. */
export class CheckInstance {
  constructor(private readonly instances: InstanceStore) {}

  async execute(tenantId: string, id: number): Promise<number> {
    if (!(await this.instances.find(tenantId, id)))
      throw notFound('Parcel-tracking instance not found.');
    return id;
  }
}
