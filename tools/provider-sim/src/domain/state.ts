import { FaultQueue } from './faults.js';
import { QuotaAccount } from './quota.js';
import type { Clock, Tracking } from './types.js';

export type AuthStyle = 'http200' | 'http401' | 'alternate';

export interface KeyOptions {
  key: string;
  /** Total registration quota. Default 1000. */
  quotaTotal?: number;
  /** Registrations allowed per UTC day. Default 10000. */
  maxTrackDaily?: number;
  /** Where this account's automatic webhooks go (on advance / setStatus / stoptrack). */
  webhookUrl?: string;
}

export interface KeyAccount {
  key: string;
  quota: QuotaAccount;
  webhookUrl: string | null;
  /** By upper-cased number. */
  trackings: Map<string, Tracking>;
}

export interface WebhookDelivery {
  url: string;
  number: string;
  event: string;
  statuses: Array<number | null>;
  delivered: boolean;
  /** The exact body sent (what was signed), so a test can have it delivered again, late. */
  body: string;
  /** Set on a replay: the index of the delivery whose body it sent again. */
  replay_of?: number;
}

export const DEFAULT_QUOTA_TOTAL = 1000;
export const DEFAULT_MAX_TRACK_DAILY = 10000;

/** Everything the simulator knows: accounts, their trackings, auth style, injected faults. */
export class SimState {
  readonly keys = new Map<string, KeyAccount>();
  readonly faults = new FaultQueue();
  readonly deliveries: WebhookDelivery[] = [];
  authStyle: AuthStyle = 'http200';
  /** Counts wrong-key answers, for the `alternate` auth style. */
  authFailures = 0;

  constructor(
    private readonly initialKeys: readonly KeyOptions[],
    readonly clock: Clock,
  ) {
    this.reset();
  }

  addKey(options: KeyOptions): KeyAccount {
    const existing = this.keys.get(options.key);
    const account: KeyAccount = {
      key: options.key,
      quota: new QuotaAccount(
        options.quotaTotal ?? DEFAULT_QUOTA_TOTAL,
        options.maxTrackDaily ?? DEFAULT_MAX_TRACK_DAILY,
        this.clock,
      ),
      webhookUrl: options.webhookUrl ?? existing?.webhookUrl ?? null,
      trackings: existing?.trackings ?? new Map(),
    };
    this.keys.set(options.key, account);
    return account;
  }

  /** Every tracking of `number` across accounts (or of one account when `apiKey` is given). */
  findTrackings(number: string, apiKey?: string): Tracking[] {
    const id = number.toUpperCase();
    const accounts = apiKey
      ? [this.keys.get(apiKey)].filter((a) => a !== undefined)
      : [...this.keys.values()];
    return accounts.flatMap((a) => {
      const t = a.trackings.get(id);
      return t ? [t] : [];
    });
  }

  allTrackings(): Tracking[] {
    return [...this.keys.values()].flatMap((a) => [...a.trackings.values()]);
  }

  /** Back to the start-up configuration: initial keys with fresh quotas, no trackings or faults. */
  reset(): void {
    this.keys.clear();
    this.faults.clear();
    this.deliveries.length = 0;
    this.authStyle = 'http200';
    this.authFailures = 0;
    for (const k of this.initialKeys) this.addKey(k);
  }
}
