import { notFound } from '@inventory/platform';
import type { SalesChannelDocument } from '../store/sales-channel-store.js';
import type { Deps } from './deps.js';

/** Every connected sales channel of the tenant, with its sub-channels. */
export class ListTrackableChannels {
  constructor(private readonly deps: Pick<Deps, 'instances' | 'channels'>) {}

  async execute(tenantId: string, instanceId: number): Promise<SalesChannelDocument[]> {
    if (!(await this.deps.instances.find(tenantId, instanceId)))
      throw notFound('Parcel-tracking instance not found.');
    return this.deps.channels.listConnected(tenantId);
  }
}
