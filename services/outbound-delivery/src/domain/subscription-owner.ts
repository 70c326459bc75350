import { userHasPermission } from '@inventory/access';
import { webhookEventScope } from '@inventory/events';

/**
 * The user a subscription acts for, with that user's grants as last known: set when the user
 * creates it or sets its url or events, kept current by identity.user.changed (ADR 0409).
 */
export interface SubscriptionOwner {
  user_id: number;
  is_owner: boolean;
  permissions: string[];
  /** When these grants were true: a change announced earlier never overwrites them. */
  as_of: Date;
}

/**
 * Whether a subscription may be sent `event`: its owner holds the event's read permission, as
 * reading the records would need. A subscription from before owners were recorded has none and
 * keeps being sent (its events were checked against its creator's grants when made). The test
 * ping names no catalog event and needs nothing.
 */
export function ownerMayReceive(owner: SubscriptionOwner | null | undefined, event: string) {
  const scope = webhookEventScope(event);
  if (!owner || !scope) return true;
  return userHasPermission({ is_owner: owner.is_owner, permissions: owner.permissions }, scope);
}
