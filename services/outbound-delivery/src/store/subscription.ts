import { Schema, type Connection, type Model } from 'mongoose';
import type { SubscriptionOwner } from '../domain/subscription-owner.js';

/** One signing secret, encrypted at rest; a rotated-out one keeps signing until `expires_at`. */
export interface StoredSecret {
  encrypted: string;
  created_at: Date;
  expires_at: Date | null;
}

export interface SubscriptionDocument {
  id: number;
  tenant_id: string;
  url: string;
  events: string[];
  description: string | null;
  is_active: boolean;
  /** Why the platform switched it off: `gone` (HTTP 410) or `consecutive_failures`. */
  deactivated_reason: string | null;
  consecutive_failures: number;
  /** Newest first; the first is the current secret. */
  secrets: StoredSecret[];
  /** Set while paused by hand: its deliveries are held (ADR 0412). */
  paused_at?: Date | null;
  /** From a resume until its held deliveries are all sent: new ones queue behind them. */
  resuming?: boolean;
  /** Who it acts for (ADR 0409); null for subscriptions made before owners were recorded. */
  owner?: SubscriptionOwner | null;
  /**
   * The content filter, checked, as JSON text (ADR 0418): its operators start with `$`, which a
   * stored field name may not. null or absent: every event of its types.
   */
  filter_json?: string | null;
  created_at: Date;
  updated_at: Date;
}

const schema = new Schema<SubscriptionDocument>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    url: { type: String, required: true },
    events: { type: [String], required: true },
    description: { type: String, default: null },
    is_active: { type: Boolean, required: true },
    deactivated_reason: { type: String, default: null },
    consecutive_failures: { type: Number, required: true },
    secrets: { type: Schema.Types.Mixed, required: true },
    owner: { type: Schema.Types.Mixed, default: null },
    filter_json: { type: String, default: null },
    paused_at: { type: Date, default: null },
    resuming: { type: Boolean, default: false },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { versionKey: false, collection: 'subscriptions', minimize: false },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ tenant_id: 1, events: 1, is_active: 1 });
schema.index({ tenant_id: 1, 'owner.user_id': 1 });
schema.index({ resuming: 1 }, { partialFilterExpression: { resuming: true } });
schema.index({ paused_at: 1 }, { partialFilterExpression: { paused_at: { $type: 'date' } } });

export type NewSubscription = Pick<
  SubscriptionDocument,
  'tenant_id' | 'url' | 'events' | 'description' | 'secrets' | 'owner'
> & { is_active?: boolean; filter_json?: string | null };

/** The `subscriptions` collection's model on a connection (kept private by its repository). */
export function subscriptionModel(connection: Connection): Model<SubscriptionDocument> {
  return connection.model<SubscriptionDocument>('Subscription', schema);
}
