import { notFound } from '@inventory/platform';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { SalesChannelDocument } from '../store/sales-channel.js';
import type { SalesChannelRepository } from '../store/sales-channel-repository.js';

/** Every connected sales channel of the tenant, with its sub-channels. */
export class ListTrackableChannels {
  constructor(
    private readonly instances: InstanceRepository,
    private readonly channels: SalesChannelRepository,
  ) {}

  async execute(tenantId: string, instanceId: number): Promise<SalesChannelDocument[]> {
    if (!(await this.instances.find(tenantId, instanceId)))
      throw notFound('Parcel-tracking instance not found.');
    return this.channels.listConnected(tenantId);
  }
}
