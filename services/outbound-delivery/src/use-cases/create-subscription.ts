import { validationFailed, type FieldViolation, type SecretBox } from '@inventory/platform';
import { mintSigningSecret } from '../domain/signing-secret.js';
import type { SubscriptionOwner } from '../domain/subscription-owner.js';
import {
  checkDescription,
  checkEvents,
  checkFilter,
  checkReceiverUrl,
  mergeViolations,
} from '../domain/subscription-input.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import type { ReceiverRules } from './receiver-rules.js';

export interface CreateSubscriptionInput {
  tenantId: string;
  url?: string;
  events?: string[];
  description?: string;
  inputViolations?: readonly FieldViolation[];
  /** false: created paused. */
  isActive?: boolean;
  /** The caller, who becomes the subscription's owner (ADR 0409). */
  owner?: Omit<SubscriptionOwner, 'as_of'>;
  /** The content filter as JSON text (ADR 0418); absent or "null": none. */
  filterJson?: string;
}

/** Validates everything (the URL's addresses included), stores the secret encrypted, returns it once. */
export class CreateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly secretBox: SecretBox,
    private readonly receivers: ReceiverRules,
  ) {}

  async execute(
    input: CreateSubscriptionInput,
  ): Promise<{ subscription: SubscriptionDocument; secret: string }> {
    const own: FieldViolation[] = [];
    const typed = new Set((input.inputViolations ?? []).map((violation) => violation.field));
    if (!typed.has('url'))
      await checkReceiverUrl(own, input.url, this.receivers.policy, this.receivers.resolve);
    const events = typed.has('events') ? [] : checkEvents(own, input.events ?? []);
    checkDescription(own, input.description);
    const filterJson =
      input.filterJson === undefined || typed.has('filter')
        ? null
        : checkFilter(own, input.filterJson);
    const violations = mergeViolations(input.inputViolations ?? [], own);
    if (violations.length > 0) throw validationFailed(violations);

    const secret = mintSigningSecret();
    const subscription = await this.subscriptions.create({
      tenant_id: input.tenantId,
      url: input.url!,
      events,
      description: input.description ?? null,
      owner: input.owner ? { ...input.owner, as_of: new Date() } : null,
      is_active: input.isActive ?? true,
      filter_json: filterJson ?? null,
      secrets: [
        { encrypted: this.secretBox.encrypt(secret), created_at: new Date(), expires_at: null },
      ],
    });
    return { subscription, secret };
  }
}
