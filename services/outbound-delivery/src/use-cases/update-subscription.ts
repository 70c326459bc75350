import { notFound, validationFailed, type FieldViolation } from '@inventory/platform';
import {
  checkDescription,
  checkEvents,
  checkFilter,
  checkReceiverUrl,
  mergeViolations,
} from '../domain/subscription-input.js';
import type { SubscriptionOwner } from '../domain/subscription-owner.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import { SUBSCRIPTION_NOT_FOUND } from './get-subscription.js';
import type { ReceiverRules } from './receiver-rules.js';

export interface UpdateSubscriptionInput {
  tenantId: string;
  id: number;
  url?: string;
  events?: string[];
  /** null clears it. */
  description?: string | null;
  isActive?: boolean;
  inputViolations?: readonly FieldViolation[];
  /** The caller: the subscription's owner from now on when url or events change (ADR 0409). */
  owner?: Omit<SubscriptionOwner, 'as_of'>;
  /** A new content filter as JSON text ("null" removes it, ADR 0418); absent: unchanged. */
  filterJson?: string;
}

/**
 * Changes only what is given. `is_active: true` re-enables a deactivated subscription with a
 * fresh failure count; `false` pauses it.
 */
export class UpdateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly receivers: ReceiverRules,
  ) {}

  async execute(input: UpdateSubscriptionInput): Promise<SubscriptionDocument> {
    const existing = await this.subscriptions.find(input.tenantId, input.id);
    if (!existing) throw notFound(SUBSCRIPTION_NOT_FOUND);
    const own: FieldViolation[] = [];
    const typed = new Set((input.inputViolations ?? []).map((violation) => violation.field));
    if (input.url !== undefined && !typed.has('url'))
      await checkReceiverUrl(own, input.url, this.receivers.policy, this.receivers.resolve);
    const events =
      input.events === undefined || typed.has('events')
        ? undefined
        : checkEvents(own, input.events);
    if (typeof input.description === 'string') checkDescription(own, input.description);
    const filterJson =
      input.filterJson === undefined || typed.has('filter')
        ? undefined
        : checkFilter(own, input.filterJson);
    const violations = mergeViolations(input.inputViolations ?? [], own);
    if (violations.length > 0) throw validationFailed(violations);

    const changes: Partial<SubscriptionDocument> = {};
    if (input.url !== undefined) changes.url = input.url;
    if (events !== undefined) changes.events = events;
    if (input.description !== undefined) changes.description = input.description;
    if (filterJson !== undefined) changes.filter_json = filterJson;
    // Whoever aims a subscription vouches for what it sends, with their own grants.
    if (input.owner && (changes.url !== undefined || changes.events !== undefined))
      changes.owner = { ...input.owner, as_of: new Date() };
    if (input.isActive === true && !existing.is_active)
      Object.assign(changes, {
        is_active: true,
        deactivated_reason: null,
        consecutive_failures: 0,
      });
    if (input.isActive === false && existing.is_active)
      Object.assign(changes, { is_active: false, deactivated_reason: null });
    const updated = await this.subscriptions.update(input.tenantId, input.id, changes);
    if (!updated) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return updated;
  }
}
