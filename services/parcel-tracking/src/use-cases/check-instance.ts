import { notFound } from '@inventory/platform';
import type { Deps } from './deps.js';

/** Whether the tenant has this instance; no provider call, so it is cheap. */
export class CheckInstance {
  constructor(private readonly deps: Pick<Deps, 'instances'>) {}

  async execute(tenantId: string, id: number): Promise<number> {
    if (!(await this.deps.instances.find(tenantId, id)))
      throw notFound('Parcel-tracking instance not found.');
    return id;
  }
}
