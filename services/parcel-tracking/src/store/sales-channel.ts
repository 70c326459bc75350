import { Schema, type Connection, type Model } from 'mongoose';

export interface SubChannelView {
  id: number;
  name: string;
  external_identifier: string;
}

/** The trackable-channels read model, fed by catalog.sales_channel.* events. */
export interface SalesChannelDocument {
  tenant_id: string;
  sales_channel_id: number;
  name: string;
  platform: string;
  icon_url: string;
  sub_channels: SubChannelView[];
  connected: boolean;
  /** The version of the last event applied; older events are ignored. */
  version: number;
  updated_at: Date;
}

const schema = new Schema<SalesChannelDocument>(
  {
    tenant_id: { type: String, required: true },
    sales_channel_id: { type: Number, required: true },
    name: { type: String, default: '' },
    platform: { type: String, default: '' },
    icon_url: { type: String, default: '' },
    sub_channels: {
      type: [{ _id: false, id: Number, name: String, external_identifier: String }],
      default: [],
    },
    connected: { type: Boolean, required: true },
    version: { type: Number, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'sales_channels' },
);
schema.index({ tenant_id: 1, sales_channel_id: 1 }, { unique: true });
schema.index({ tenant_id: 1, connected: 1 });

export type ChannelSnapshot = Pick<
  SalesChannelDocument,
  'name' | 'platform' | 'icon_url' | 'sub_channels'
>;

export function salesChannelModel(connection: Connection): Model<SalesChannelDocument> {
  return connection.model<SalesChannelDocument>('SalesChannel', schema);
}
