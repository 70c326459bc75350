import {
  BoundedMemo,
  type GroupCommitQueue,
  type Logger,
  type SecretBox,
} from '@inventory/platform';
import { redactedHeaders, redactedUrl } from '../domain/attempt-request.js';
import { nextStep, type NextStep } from '../domain/attempt-outcome.js';
import { deliveryHeaders } from '../domain/delivery-envelope.js';
import {
  signatureOf,
  signingKeyOf,
  standardSignature,
  type SigningKey,
} from '../domain/signing-secret.js';
import type { DeliveryMetrics } from '../delivery/delivery-metrics.js';
import type { HttpSender } from '../delivery/http-sender.js';
import { cycleSlotId, type RateCap } from '../delivery/rate-cap.js';
import type { AttemptRecord, DeliveryDocument, Settle } from '../store/delivery.js';
import type { SubscriptionRepository } from '../store/subscription-repository.js';
import type { SubscriptionDocument } from '../store/subscription.js';
import type { DeactivateSubscription } from './deactivate-subscription.js';

export type SettledOutcome = 'succeeded' | 'failed' | 'dropped' | 'skipped';

/** A first attempt's row, and what still has to happen once it is stored. */
export interface FirstAttempt {
  row: DeliveryDocument;
  /** Counted once the row is stored (a retry counts nothing yet). */
  outcome?: SettledOutcome;
  /** Subscription change and settle, for the outcomes whose change must come first. */
  settle?: () => Promise<void>;
}

export interface DeliveryRules {
  shortName: string;
  maxAttempts: number;
  retryDelaysMs: readonly number[];
  deactivateAfterFailures: number;
}

/**
 * One attempt of one claimed delivery: cap check at the start of a cycle, signing with every
 * live secret, the POST, and settling by the delivery rules (retry, success, 410, failure
 * count and deactivation).
 */
export class AttemptDelivery {
  constructor(
    private readonly stores: {
      subscriptions: SubscriptionRepository;
      /** Settles by group commit (ADR 0406): each waits for its own write, in order. */
      settles: Pick<GroupCommitQueue<Settle>, 'add'>;
    },
    private readonly sender: HttpSender,
    private readonly rateCap: RateCap,
    private readonly secretBox: SecretBox,
    private readonly deactivate: DeactivateSubscription,
    private readonly rules: DeliveryRules,
    private readonly metrics: DeliveryMetrics,
    private readonly logger: Logger,
  ) {}

  /**
   * Starts one attempt per claimed delivery, their subscriptions read in one query and the cap
   * slots of each tenant taken in one block; resolves to the attempts in flight.
   */
  async executeAll(batch: DeliveryDocument[]): Promise<Array<Promise<void>>> {
    const found = await this.stores.subscriptions.byIdsAcrossTenants(
      batch.map((d) => d.subscription_id),
    );
    const byId = new Map(found.map((subscription) => [subscription.id, subscription]));
    // The tenant check: a delivery only ever goes to its own tenant's subscription.
    const targets = batch.map((delivery) => {
      const subscription = byId.get(delivery.subscription_id);
      return subscription?.tenant_id === delivery.tenant_id ? subscription : undefined;
    });
    const admitted = await this.admit(batch, targets);
    return batch.map((delivery, index) => this.execute(delivery, targets[index], admitted[index]!));
  }

  /**
   * Whether each delivery may be attempted under the cap: ones already admitted in this cycle
   * pass, the others of a tenant share the block of slots taken for them, oldest first.
   */
  async admit(
    batch: DeliveryDocument[],
    targets: Array<SubscriptionDocument | undefined>,
  ): Promise<boolean[]> {
    const admitted = batch.map((delivery) => delivery.admitted);
    const waiting = new Map<string, number[]>();
    batch.forEach((delivery, index) => {
      const target = targets[index];
      // A paused subscription's delivery takes its slot when it is sent, not when it is held.
      if (delivery.admitted || !target?.is_active || target.paused_at) return;
      const list = waiting.get(delivery.tenant_id) ?? [];
      list.push(index);
      waiting.set(delivery.tenant_id, list);
    });
    await Promise.all(
      [...waiting].map(async ([tenantId, indexes]) => {
        const granted = await this.rateCap.admit(
          tenantId,
          indexes.map((index) => cycleSlotId(batch[index]!)),
        );
        indexes.forEach((index, position) => (admitted[index] = granted[position]!));
      }),
    );
    return admitted;
  }

  async execute(
    delivery: DeliveryDocument,
    subscription: SubscriptionDocument | undefined,
    admitted: boolean,
  ): Promise<void> {
    const { settles } = this.stores;
    if (!subscription?.is_active) {
      await settles.add({ delivery, changes: { status: 'skipped' } });
      this.metrics.settled('skipped');
      return;
    }
    if (subscription.paused_at) {
      // Paused since it was scheduled (a retry, a redelivery, a ping): held, sent on resume.
      await settles.add({ delivery, changes: { status: 'held' } });
      return;
    }
    if (!admitted) {
      await settles.add({ delivery, changes: { status: 'dropped' } });
      this.metrics.settled('dropped');
      this.logger.warn(
        { delivery_id: delivery.delivery_id, subscription_id: subscription.id },
        'outbound webhook dropped: the tenant is over its per-minute cap',
      );
      return;
    }

    const { attempt, step } = await this.send(delivery, subscription);
    await this.settle(delivery, subscription, attempt, step);
  }

  /**
   * The first attempt of a catalog event's delivery, made before any row of it exists (ADR 0408):
   * returns the row to insert, already holding its outcome. An outcome whose subscription change
   * must come before the log shows it (410, attempts spent) returns the row still pending (the
   * caller stores it leased to this replica) and `settle`, to run once the row is stored, which
   * makes the change and then settles the row, in the order `execute` keeps (a crash in between
   * leaves a lease that expires, and the attempt is repeated with the same delivery id).
   */
  async firstAttempt(
    delivery: DeliveryDocument,
    subscription: SubscriptionDocument,
    admitted: boolean,
  ): Promise<FirstAttempt> {
    if (!admitted) {
      this.logger.warn(
        { delivery_id: delivery.delivery_id, subscription_id: subscription.id },
        'outbound webhook dropped: the tenant is over its per-minute cap',
      );
      return { row: { ...delivery, status: 'dropped' }, outcome: 'dropped' };
    }
    const { attempt, step } = await this.send(delivery, subscription);
    const done = { cycle_attempts: 1, admitted: true, attempts: [attempt] };
    switch (step.kind) {
      case 'succeeded':
        if (subscription.consecutive_failures !== 0)
          await this.stores.subscriptions.recordSuccess(subscription.tenant_id, subscription.id);
        return { row: { ...delivery, ...done, status: 'succeeded' }, outcome: 'succeeded' };
      case 'retry':
        return {
          row: {
            ...delivery,
            ...done,
            status: 'pending',
            next_attempt_at: new Date(Date.now() + step.afterMs),
          },
        };
      case 'gone':
      case 'failed':
        return {
          row: { ...delivery },
          settle: () => this.settle(delivery, subscription, attempt, step),
        };
    }
  }

  /** Counts a first attempt's row once it is stored (the worker's settles count their own). */
  recorded(outcome: SettledOutcome): void {
    this.metrics.settled(outcome);
  }

  /** Signs and posts one attempt; what it got and what the rules make of it. */
  private async send(
    delivery: DeliveryDocument,
    subscription: SubscriptionDocument,
  ): Promise<{ attempt: AttemptRecord; step: NextStep }> {
    const secrets = this.liveSecrets(subscription);
    const attemptedAt = new Date();
    const timestampSeconds = Math.floor(attemptedAt.getTime() / 1000);
    const headers = deliveryHeaders(this.rules.shortName, delivery.event, delivery.delivery_id, {
      svc: signatureOf(secrets[0]!, delivery.body),
      standard: standardSignature(secrets, {
        id: delivery.delivery_id,
        timestampSeconds,
        body: delivery.body,
      }),
      timestampSeconds,
    });
    const outcome = await this.sender.send(subscription.url, headers, delivery.body);
    this.metrics.attempt(
      outcome.responseStatus === undefined
        ? 'error'
        : outcome.responseStatus < 300 && outcome.responseStatus >= 200
          ? '2xx'
          : 'status',
      outcome.durationMs,
    );
    const attempt = {
      attempted_at: attemptedAt,
      response_status: outcome.responseStatus ?? null,
      duration_ms: outcome.durationMs,
      error: outcome.error ?? null,
      response_body: outcome.responseBody ?? null,
      request_url: redactedUrl(subscription.url),
      request_headers: redactedHeaders(headers, [
        `X-${this.rules.shortName}-Signature`,
        'webhook-signature',
      ]),
    };
    const made = delivery.cycle_attempts + 1;
    return {
      attempt,
      step: nextStep(outcome, made, this.rules.maxAttempts, this.rules.retryDelaysMs),
    };
  }

  /** Settles an attempt by the delivery rules, subscription changes first. */
  private async settle(
    delivery: DeliveryDocument,
    subscription: SubscriptionDocument,
    attempt: AttemptRecord,
    step: NextStep,
  ): Promise<void> {
    const { subscriptions, settles } = this.stores;
    const base = { cycle_attempts: delivery.cycle_attempts + 1, admitted: true };
    switch (step.kind) {
      case 'succeeded':
        // Most subscriptions never failed: no write to reset a count that is already 0. Reset
        // before settling, as failures are counted, so the log never runs ahead of the count.
        if (subscription.consecutive_failures !== 0)
          await subscriptions.recordSuccess(subscription.tenant_id, subscription.id);
        await settles.add({
          delivery,
          changes: { ...base, status: 'succeeded' },
          attempt,
        });
        this.metrics.settled('succeeded');
        return;
      case 'retry':
        await settles.add({
          delivery,
          changes: {
            ...base,
            status: 'pending',
            next_attempt_at: new Date(Date.now() + step.afterMs),
          },
          attempt,
        });
        return;
      case 'gone':
        // Switched off first: a crash before settling leaves a delivery that is then skipped.
        await this.deactivate.execute(subscription, 'gone', subscription.consecutive_failures, {
          delivery,
          attempt,
        });
        await settles.add({
          delivery,
          changes: { ...base, status: 'failed' },
          attempt,
        });
        this.metrics.settled('failed');
        return;
      case 'failed': {
        // Counted before settling: once the log shows a failure, the subscription's count and
        // any deactivation already include it (a crash in between retries the delivery instead).
        const failures = await subscriptions.recordFailure(subscription.tenant_id, subscription.id);
        if (failures >= this.rules.deactivateAfterFailures)
          await this.deactivate.execute(subscription, 'consecutive_failures', failures, {
            delivery,
            attempt,
          });
        await settles.add({
          delivery,
          changes: { ...base, status: 'failed' },
          attempt,
        });
        this.metrics.settled('failed');
        return;
      }
    }
  }

  /** The current secret and any rotated-out one still in its overlap, newest first. */
  private liveSecrets(subscription: SubscriptionDocument): SigningKey[] {
    const now = Date.now();
    const live: SigningKey[] = [];
    for (const secret of subscription.secrets)
      if (!secret.expires_at || new Date(secret.expires_at).getTime() > now)
        live.push(this.keys.get(secret.encrypted));
    return live;
  }

  /**
   * Each secret's signing keys by its ciphertext: the same few secrets sign every delivery, and
   * AES-GCM, then the keys' derivation, per delivery showed in the profile (ADR 0745). A rotated
   * secret has a new ciphertext, so nothing stale is ever used; kept up to what one replica's
   * subscribers need.
   */
  private readonly keys = new BoundedMemo((encrypted: string) =>
    signingKeyOf(this.secretBox.decrypt(encrypted)),
  );
}
