import { ErrorCode } from '../errors.js';
import type { Clock } from './types.js';

export interface QuotaSnapshot {
  quota_total: number;
  quota_used: number;
  quota_remain: number;
  today_used: number;
  max_track_daily: number;
  free_email_quota: number;
  free_email_quotaused: number;
  free_email_quota_remain: number;
}

/**
 * One account's registration quota: one unit per successful registration, never refunded.
 * `today_used` resets when the UTC date changes.
 */
export class QuotaAccount {
  private used = 0;
  private todayUsed = 0;
  private day: string;

  constructor(
    public quotaTotal: number,
    public maxTrackDaily: number,
    private readonly clock: Clock,
  ) {
    this.day = this.today();
  }

  /** The error code that would refuse one more registration, or `undefined` if it fits. */
  check(): number | undefined {
    this.rollDay();
    if (this.used >= this.quotaTotal) return ErrorCode.QuotaExhausted;
    if (this.todayUsed >= this.maxTrackDaily) return ErrorCode.DailyLimitExceeded;
    return undefined;
  }

  consume(): void {
    this.rollDay();
    this.used += 1;
    this.todayUsed += 1;
  }

  snapshot(): QuotaSnapshot {
    this.rollDay();
    return {
      quota_total: this.quotaTotal,
      quota_used: this.used,
      quota_remain: Math.max(0, this.quotaTotal - this.used),
      today_used: this.todayUsed,
      max_track_daily: this.maxTrackDaily,
      free_email_quota: 0,
      free_email_quotaused: 0,
      free_email_quota_remain: 0,
    };
  }

  private today(): string {
    return this.clock().toISOString().slice(0, 10);
  }

  private rollDay(): void {
    const d = this.today();
    if (d !== this.day) {
      this.day = d;
      this.todayUsed = 0;
    }
  }
}
